"""One router per area of the service; `api.app` gathers them."""
