"""The web layer: page blueprints, the JSON API, errors, languages, assets."""
