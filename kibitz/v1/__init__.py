"""Generated code for the kibitz.v1 protocol (regenerate: python scripts/gen_proto.py)."""
