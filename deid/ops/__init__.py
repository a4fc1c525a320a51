"""Operations: MLflow registry and pyfunc, promotion gate, lineage, DVC, S3, batches and chunks,
data checks."""
