"""The rules page: the game's rules in the player's language, one anchor per ruling, and the
``link_rulings`` filter that links every "(R7, R8)" citation on other pages to it."""

from companion.rulebook.routes import bp

__all__ = ["bp"]
