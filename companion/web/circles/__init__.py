"""The circles page: the circles this phone is in, each with its invite link and QR code,
a new invite link, a new name; and the invite link that lets a phone in."""

from flask import Blueprint

bp = Blueprint("circles", __name__)

from companion.web.circles import routes  # noqa: E402, F401  (routes register on bp)
