"""deid."""
