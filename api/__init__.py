"""The HTTP service: translates requests into calls of `assistant` and its results back into responses."""
