"""Operations: metrics, JSON logs and the garbage-collector policy."""
