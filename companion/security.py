"""Security headers on every response, cookie settings, and the reverse-proxy setting.

The pages load nothing but their own scripts, styles and images, so the policy can forbid
everything else: an injected ``<script>`` or a framing site gets nowhere.
"""

from __future__ import annotations

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # Edit links carry the key in their path: never tell another site where we came from.
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}


def add_security_headers(response: Response) -> Response:
    """Set the headers on every response that does not set its own."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class SessionInterface(SecureCookieSessionInterface):
    """The signed session cookie, marked Secure whenever the request came over HTTPS (the
    session holds edit keys), and always when ``SESSION_COOKIE_SECURE`` says so."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def init_app(app: Flask) -> None:
    """Install the headers, and trust ``X-Forwarded-*`` from as many proxies as configured.

    Behind one HTTPS proxy set ``PROXY_COUNT=1``: the app then sees the original scheme, so
    cookies are marked Secure and links use https.
    """
    app.after_request(add_security_headers)
    app.session_interface = SessionInterface()
    proxies = int(app.config.get("PROXY_COUNT", 0))
    if proxies > 0:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_prefix=proxies
        )
