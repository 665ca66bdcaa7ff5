"""Read models: what the pages and the API show, built from the data layer."""
