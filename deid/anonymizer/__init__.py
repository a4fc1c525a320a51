"""The run-time path from text to anonymized text: the pipeline, model inference and its input
features, rule recognizers, the chain (keep zones, policy filters, consistency), the operators
and the format writer."""
