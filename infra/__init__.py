"""Local infrastructure: the loopback stack (``infra/stack.py``) and the compose file."""
