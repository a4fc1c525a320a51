# MLflow server with the Postgres driver and boto3 (the official image has neither pinned).
FROM python:3.11-slim
RUN pip install --no-cache-dir "mlflow==3.17.2" "psycopg2-binary>=2.9" "boto3>=1.34"
ENV MLFLOW_SERVER_ENABLE_JOB_EXECUTION=false
EXPOSE 5000
