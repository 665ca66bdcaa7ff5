"""The one blueprint of the game pages, apart from the package that registers their routes,
so that the areas import it without importing each other."""

from flask import Blueprint

bp = Blueprint("games", __name__)
