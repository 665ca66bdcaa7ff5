"""Security headers on every response, cookie settings, where a form may come from, and
the reverse-proxy settings.

The pages load nothing but their own scripts, styles and images, so the policy can forbid
everything else: an injected ``<script>`` or a framing site gets nowhere.

Why our headers and not Flask-Talisman: it would add a dependency and remove no code
(docs/development.md, "Measurements behind the design").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from flask import Flask, Request, current_app, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask_wtf.csrf import CSRFError, CSRFProtect
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from companion.web.session_cookie_cache import VerifiedCookies

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: Every form carries a CSRF token. The API is exempt: it takes bearer keys, and the session's
#: edit keys only from our own pages (``sent_by_own_pages``).
csrf = CSRFProtect()

#: The ``Sec-Fetch-Site`` of a request this app's own pages sent (a form, a fetch): the
#: browser sets it and no page can forge it.
OWN_PAGES = "same-origin"
#: ``Sec-Fetch-Site`` values of a form this app's own pages sent, or the user typed.
OWN_FETCH_SITES = frozenset({OWN_PAGES, "none"})
#: The blueprint that takes no CSRF token: bearer keys, and the session only from our own
#: pages, so a request from another site gains nothing.
TOKENLESS_BLUEPRINTS = frozenset({"api"})
#: Why such a form was refused, for the log: the pages answer with their own message, in
#: the player's language, as for an expired form.
CROSS_SITE = "The form was sent from another site."

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


def url_prefix(app: Flask) -> str:
    """Where the app is mounted: ``URL_PREFIX`` as a path (``/sticheln``), or ``""`` at the
    root of the site."""
    prefix = str(app.config.get("URL_PREFIX") or "").strip("/")
    return "/" + prefix if prefix else ""


def cookie_path(app: Flask) -> str:
    """The path our cookies are sent to: the app's own paths only. Another app on the same
    host (under another prefix) never receives the edit keys the session holds, and a
    cookie it sets for itself never lands on ours."""
    return url_prefix(app) or "/"


#: The name the session cookie had before it was the app's own, always with ``Path=/``.
#: Phones keep it for months: one that still sends it keeps its edit keys (``old_session``).
OLD_SESSION_COOKIE = "session"


def signing_keys(app: Flask) -> tuple[object, ...]:
    """The keys session cookies are signed and checked with: the fallbacks, then the key."""
    return (*(app.config.get("SECRET_KEY_FALLBACKS") or ()), app.secret_key)


#: The caching of an answer that differs by phone (it read the session: the phone's games,
#: circles, edit rights, form token): kept by no shared cache, asked again each time.
PER_PHONE_CACHE_CONTROL = "private, no-cache"


class Session(SecureCookieSession):
    """The session, which knows whether it was read from the old cookie."""

    from_old_cookie = False


class SessionInterface(SecureCookieSessionInterface):
    """The signed session cookie, marked Secure whenever the request came over HTTPS (the
    session holds edit keys), and always when ``SESSION_COOKIE_SECURE`` says so; sent to
    the app's own paths (``SESSION_COOKIE_PATH`` if set, else ``cookie_path``)."""

    session_class = Session

    def __init__(self) -> None:
        #: The cookies this app's process has verified (``session_cookie_cache``).
        self.verified = VerifiedCookies()
        #: Flask's signing serializer, with the keys it was made for (``serializer`` is
        #: Flask's name for the JSON one inside it).
        self.signing: tuple[tuple[object, ...], URLSafeTimedSerializer | None] | None = None

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def get_cookie_path(self, app: Flask) -> str:
        return str(app.config.get("SESSION_COOKIE_PATH") or cookie_path(app))

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The session of the cookie of our own name, else the one kept under the old."""
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        name = self.get_cookie_name(app)
        if name not in request.cookies:
            return self.old_session(app, request) or self.session_class()
        value = request.cookies[name]
        return self.signed_session(app, serializer, value) if value else self.session_class()

    def signed_session(
        self, app: Flask, serializer: URLSafeTimedSerializer, value: str
    ) -> SecureCookieSession:
        """The session a cookie carries (empty if its signature fails or has expired): a
        cookie this process has verified before is not checked again (``session_cookie_cache``)."""
        keys = signing_keys(app)
        data = self.verified.find(value, keys)
        if data is None:
            max_age = int(app.permanent_session_lifetime.total_seconds())
            try:
                data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
            except BadSignature:
                return self.session_class()
            self.verified.keep(value, keys, data, signed.timestamp() + max_age)
        return self.session_class(data)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's serializer, made once per set of keys rather than at every request."""
        keys = signing_keys(app)
        if self.signing is None or self.signing[0] != keys:
            self.signing = (keys, super().get_signing_serializer(app))
        return self.signing[1]

    def old_session(self, app: Flask, request: Request) -> Session | None:
        """The session a phone still keeps under the old name, if this app signed it (a
        ``session`` cookie of another app is not ours, and is left alone). It is written
        under the new name, and the old cookie deleted, with this request's answer."""
        value = request.cookies.get(OLD_SESSION_COOKIE)
        serializer = self.get_signing_serializer(app)
        if not value or serializer is None:
            return None
        try:
            data = serializer.loads(
                value, max_age=int(app.permanent_session_lifetime.total_seconds())
            )
        except BadSignature:
            return None
        session = Session(data)
        session.modified = session.from_old_cookie = True
        return session

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Write the session; a session read from the old cookie also deletes that cookie,
        which would otherwise go on carrying edit keys to every path of the host. A session
        that writes no cookie (Flask's own rule) only says the answer varies with the cookie
        if it was read, without working out the cookie's attributes first: most answers are
        a phone's polls, which change nothing.

        An answer that read the session differs by phone: unless it says otherwise (a
        scoreboard, public or private, its own ``Cache-Control``), it is sent
        :data:`PER_PHONE_CACHE_CONTROL`, so no shared cache keeps it and the phone's own
        asks each time."""
        if session.accessed and "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = PER_PHONE_CACHE_CONTROL
        if not self.should_set_cookie(app, session):
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)
        if getattr(session, "from_old_cookie", False):
            response.delete_cookie(
                OLD_SESSION_COOKIE,
                path="/",
                domain=self.get_cookie_domain(app),
                secure=self.get_cookie_secure(app),
                httponly=True,
                samesite=self.get_cookie_samesite(app),
            )


def refuse_cross_site_forms() -> None:
    """Refuse a form another site's page sent, before any view runs.

    This is the second guard against cross-site requests: every form carries its CSRF token
    (Flask-WTF) and the session cookie is ``SameSite=Lax``. Flask-WTF's own HTTPS check
    (``WTF_CSRF_SSL_STRICT``) demands a ``Referer`` naming this host instead, and so refused
    every form of the share page and the edit link, which send ``Referrer-Policy:
    no-referrer`` because their addresses hold the edit key. Sending the referrer again
    (``same-origin``) would put edit keys into this server's own logs and would still fail
    wherever a browser, an extension or a privacy setting drops the header. The checks here
    use what the browser reports about the request itself, whatever the referrer policy:

    - ``Sec-Fetch-Site``, which the browser sets and no page can forge, must say the form
      came from this origin (or from the user: ``none``); ``same-site`` (a sibling
      subdomain, perhaps another app) and ``cross-site`` are refused;
    - a browser too old to send it still sends ``Origin`` with a POST: its host must be this
      one. ``Origin: null`` (a page with ``no-referrer``) proves nothing either way and
      leaves the decision to the token.
    """
    if request.method not in current_app.config["WTF_CSRF_METHODS"]:
        return
    if not current_app.config.get("WTF_CSRF_ENABLED", True):
        return
    if request.blueprint in TOKENLESS_BLUEPRINTS:
        return
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        if site.lower() not in OWN_FETCH_SITES:
            raise CSRFError(CROSS_SITE)
        return
    origin = request.headers.get("Origin", "null")
    if origin != "null" and urlsplit(origin).netloc.lower() != request.host.lower():
        raise CSRFError(CROSS_SITE)


def sent_by_own_pages() -> bool:
    """Whether the browser says this request came from one of this app's own pages (such
    as the offline outbox's fetch), which may then use the edit keys of the session.
    ``same-site`` (a sibling subdomain, perhaps another app), ``cross-site``, ``none`` (typed,
    never a fetch) and a request without the header (an older browser, any other program)
    did not."""
    return request.headers.get("Sec-Fetch-Site", "").lower() == OWN_PAGES


class FixedPrefix:
    """Serve the app under ``URL_PREFIX`` (such as ``/sticheln``), a setting rather than a
    request header, so no request can change the links another phone is given."""

    def __init__(self, app: WSGIApplication, prefix: str):
        self.app = app
        self.prefix = prefix

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path = str(environ.get("PATH_INFO", ""))
        if path == self.prefix or path.startswith(self.prefix + "/"):
            environ["PATH_INFO"] = path[len(self.prefix) :]
        environ["SCRIPT_NAME"] = self.prefix
        return self.app(environ, start_response)


def init_app(app: Flask) -> None:
    """Install the headers and the cross-site check, and read the proxy settings.

    Behind one HTTPS proxy set ``PROXY_COUNT=1``: the app then takes the client's address
    and the original scheme from ``X-Forwarded-For`` and ``X-Forwarded-Proto``, which every
    proxy overwrites, so cookies are marked Secure and links use https. The host of
    ``X-Forwarded-Host`` is trusted only with ``PROXY_TRUST_HOST``, and ``X-Forwarded-Prefix``
    never: a fixed ``URL_PREFIX`` says where the app is mounted. A header a proxy passes
    through unchanged would otherwise let one request shape the pages other phones get.
    """
    app.after_request(add_security_headers)
    app.before_request(refuse_cross_site_forms)
    app.session_interface = SessionInterface()
    proxies = int(app.config.get("PROXY_COUNT", 0))
    if proxies > 0:
        trust_host = proxies if app.config.get("PROXY_TRUST_HOST") else 0
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=trust_host, x_prefix=0
        )
    prefix = url_prefix(app)
    if prefix:
        app.wsgi_app = FixedPrefix(app.wsgi_app, prefix)  # type: ignore[method-assign]
