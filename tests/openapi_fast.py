"""A faster road to the same verdicts for tests/openapi_check.py: openapi-core validates
each body against its schema with python-jsonschema, which walks a game's state two or three
times over (``unevaluatedProperties`` after ``allOf`` validates the ``allOf`` again), some
30 ms an exchange, nearly half the time of the API-heavy tests. jsonschema-rs (installed
with schemathesis) gives its verdict in well under a millisecond.

The verdict stays python-jsonschema's: a schema is handed to jsonschema-rs only if every
keyword in it (its ``$ref`` targets included) is one whose meaning is the same in both
(:data:`SAME_IN_BOTH`) and its formats are checked by python-jsonschema's own checkers; a
value jsonschema-rs finds valid passes, and any other (or any value jsonschema-rs cannot
read) goes to openapi-core's own validation, which decides and words the failure exactly
as before. tests/api/test_openapi_fast.py holds the two to the same verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property, partial
from typing import Any

import jsonschema_rs
from jsonschema_path import SchemaPath
from openapi_core.validation.schemas import oas31_schema_validators_factory
from openapi_core.validation.schemas.factories import DialectSchemaValidatorsFactory
from openapi_core.validation.schemas.validators import SchemaValidator

#: Keywords whose value is a schema, a list of schemas, or a map of names to schemas.
ONE_SCHEMA = {"items", "additionalProperties", "unevaluatedProperties", "not", "propertyNames"}
SCHEMA_LIST = {"allOf", "anyOf", "oneOf"}
SCHEMA_MAP = {"properties"}
#: Keywords that hold no schema and mean the same to both libraries (annotations included).
PLAIN = {
    "type",
    "required",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "description",
    "title",
    "examples",
    "default",
}
SAME_IN_BOTH = ONE_SCHEMA | SCHEMA_LIST | SCHEMA_MAP | PLAIN | {"$ref", "format"}
#: Formats whose python-jsonschema checker passes anything but a string, as jsonschema-rs
#: checks a format on strings only; their checkers are lent to jsonschema-rs.
STRING_FORMATS = {"date-time", "uri"}
#: Where the document's schemas are, for ``$ref``.
COMPONENTS = "#/components/"


class Unsuitable(Exception):
    """The schema uses something jsonschema-rs might read otherwise: python-jsonschema only."""


def formats_of(schema: Any, document: Mapping[str, Any]) -> set[str]:
    """The formats ``schema`` uses, following its references; :class:`Unsuitable` if it uses
    a keyword outside :data:`SAME_IN_BOTH` or a format outside :data:`STRING_FORMATS`."""
    found: set[str] = set()
    seen: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, bool):
            return
        if not isinstance(node, Mapping):
            raise Unsuitable(f"not a schema: {node!r}")
        for keyword, value in node.items():
            if keyword not in SAME_IN_BOTH:
                raise Unsuitable(keyword)
            if keyword == "$ref":
                follow(value)
            elif keyword == "format":
                if value not in STRING_FORMATS:
                    raise Unsuitable(f"format {value}")
                found.add(value)
            elif keyword in ONE_SCHEMA:
                walk(value)
            elif keyword in SCHEMA_LIST:
                for each in value:
                    walk(each)
            elif keyword in SCHEMA_MAP:
                for each in value.values():
                    walk(each)

    def follow(reference: Any) -> None:
        if not isinstance(reference, str) or not reference.startswith(COMPONENTS):
            raise Unsuitable(f"$ref {reference!r}")
        if reference in seen:
            return
        seen.add(reference)
        node: Any = document
        for part in reference.removeprefix("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        walk(node)

    walk(schema)
    return found


def compiled(
    schema: Mapping[str, Any], document: Mapping[str, Any], conforms: Callable[[Any, str], bool]
) -> Any:
    """``schema`` as a jsonschema-rs validator (Draft 2020-12, the dialect of OpenAPI 3.1),
    its references resolved in ``document``, its formats checked by ``conforms`` (python-
    jsonschema's); None if it is :class:`Unsuitable`."""
    try:
        formats = formats_of(schema, document)
    except Unsuitable:
        return None
    checks = {name: (lambda value, name=name: conforms(value, name)) for name in formats}
    root = {**schema, "components": document["components"]}
    return jsonschema_rs.Draft202012Validator(
        root, validate_formats=True, formats=checks, ignore_unknown_formats=False
    )


class FastSchemaValidator(SchemaValidator):
    """openapi-core's validator of one schema, asking jsonschema-rs first; openapi-core's
    own python-jsonschema validator is made only when it is needed."""

    def __init__(self, schema: SchemaPath, make: Callable[[], Any], fast: Any):
        self.schema = schema
        self.make = make
        self.fast = fast

    @cached_property
    def validator(self) -> Any:  # type: ignore[override]
        """openapi-core's python-jsonschema validator of the schema."""
        return self.make()

    def validate(self, value: Any) -> None:
        """Pass ``value`` if jsonschema-rs finds it valid; else openapi-core decides."""
        try:
            valid = self.fast.is_valid(value)
        except (ValueError, TypeError, OverflowError):  # a value jsonschema-rs cannot read
            valid = False
        if not valid:
            super().validate(value)


class FastSchemaValidatorsFactory(DialectSchemaValidatorsFactory):
    """openapi-core's factory of OpenAPI 3.1 schema validators, whose validators ask
    jsonschema-rs first where the schema allows it (compiled once per schema)."""

    def __init__(self, document: Mapping[str, Any]):
        default = oas31_schema_validators_factory
        super().__init__(
            default.schema_validator_cls,
            default.default_jsonschema_dialect_id,
            default.format_checker,
        )
        self.document = document
        self.fast: dict[tuple[str, ...], Any] = {}

    def create(
        self,
        spec: SchemaPath,
        schema: SchemaPath,
        format_validators: Any = None,
        extra_format_validators: Any = None,
        forbid_unspecified_additional_properties: bool = False,
        enforce_properties_required: bool = False,
    ) -> SchemaValidator:
        """openapi-core's validator, asking jsonschema-rs first when nothing changes its
        rules (no formats of the caller's, no stricter property policy) and the schema is
        suitable."""
        options = (
            format_validators,
            extra_format_validators,
            forbid_unspecified_additional_properties,
            enforce_properties_required,
        )
        make = partial(DialectSchemaValidatorsFactory.create, self, spec, schema, *options)
        if any(options):
            return make()
        key = tuple(str(part) for part in schema.parts)
        if key not in self.fast:
            self.fast[key] = self.compile(spec, schema)
        fast = self.fast[key]
        if fast is None:
            return make()
        return FastSchemaValidator(schema, lambda: make().validator, fast)

    def compile(self, spec: SchemaPath, schema: SchemaPath) -> Any:
        """The jsonschema-rs validator of ``schema``, None where python-jsonschema only."""
        if self.get_validator_cls(spec, schema) is not self.schema_validator_cls:
            return None  # a schema of another dialect than OpenAPI 3.1's
        with schema.resolve() as resolved:
            contents = resolved.contents
        return compiled(contents, self.document, self.get_format_checker().conforms)
