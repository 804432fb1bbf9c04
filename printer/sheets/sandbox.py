"""The Jinja2 sandbox every template runs in, and template errors as located problems.

Templates are shared between projects, so they are treated as untrusted:

- :class:`TemplateSandbox` is Jinja2's :class:`~jinja2.sandbox.SandboxedEnvironment`
  (no ``__class__``, ``__globals__``, ``mro()``... : reaching Python internals
  raises :class:`~jinja2.exceptions.SecurityError`) with autoescaping on, and
  with ``*`` and ``**`` limited so that ``'x' * 10**10`` or ``9 ** 9 ** 9``
  fail at once instead of eating the machine's memory (Jinja2's own
  ``range()`` is already limited to 100,000 items), and every string and list
  a template builds bounded (:mod:`printer.sheets.sizes`: ``~``, ``+``, ``%``,
  filters, methods, ``{% set %}`` blocks);
- :func:`template_data` is the one gate every template context goes through:
  templates get plain data only (dicts, lists, strings, numbers, booleans,
  ``None``) and printer's own helper functions, never a :class:`~pathlib.Path`,
  a file object or anything else with I/O methods;
- :func:`template_problem` turns any exception a template raised (an
  undefined variable, a sandbox violation, ``1 / 0``...) into a
  :class:`~printer.problems.Problem` located ``template-file:line``.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import operator
import os
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

import jinja2
import jinja2.bccache
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from printer.problems import Location, Problem
from printer.sheets import bytecode, cputime, sizes, spaceless
from printer.sheets.sizes import RenderLimit

if TYPE_CHECKING:
    from jinja2.compiler import Frame
    from jinja2.runtime import Context

__all__ = ["RenderLimit", "TemplateSandbox", "render_limited", "template_data", "template_problem"]

#: the longest string or list a template may build with ``*`` (items)
MAX_REPEAT = 1_000_000
#: the largest exponent ``**`` may use
MAX_EXPONENT = 1_000
#: string methods whose integer argument is a size to allocate ('x'.ljust(3000000000))
_SIZED_STR_METHODS = frozenset({"ljust", "rjust", "center", "zfill", "expandtabs"})
#: the longest one template render may run, seconds of the process's CPU time (a loop in a loop in a loop...)
RENDER_SECONDS = 20.0
#: Jinja2's builtin filters whose result is one of their arguments (``default``) or a number (``length``): they
#: make no string or list, so their result is not counted again. A filter that copies a string, even to one no
#: longer (``lower``, ``trim``, ``escape``, ``safe``), is not here: keeping many copies of a long string is what
#: the render's budget of characters stops. Nor is one that takes an item (``first``, ``max``): the item of a
#: ``map`` is made as it is taken.
_KEEPS_VALUE = frozenset({"default", "d", "length", "count", "int", "float", "abs", "round"})
#: the methods of a plain dict that only read it (``card.get('cost')``): they give values already there
_DICT_READS = frozenset({"get", "keys", "values", "items"})
#: the attributes a plain dict has: its class's (an instance of ``dict`` holds no attribute of its own)
_DICT_ATTRIBUTES = frozenset(dir(dict))


def render_limited(template: jinja2.Template, context: dict[str, Any], max_chars: int) -> str:
    """``template`` rendered with ``context``, stopped with :class:`RenderLimit` past ``max_chars`` of output
    or :data:`RENDER_SECONDS` of this process's CPU time (measured as the output is produced, and by a profiling
    interval timer in the main thread, so a loop that prints nothing is stopped too: :mod:`printer.sheets.cputime`,
    one timer for a whole :func:`~printer.sheets.cputime.row` of renders).

    CPU time, not wall time: on a busy machine, or at the lowest priority (``nice -n 19``), a render waits for
    the processor far longer than it runs (the sheets of a 50,000-card build, 64 a template, were stopped after
    20 s of waiting), while a template that loops still spends its CPU and is stopped. A caller's own wall-clock
    timer (``SIGALRM``: ``printer serve``'s per-face limit) is left alone and fires as it would; a caller's
    profiling timer is set aside and goes on afterwards with the time it had left."""
    import time

    seconds = RENDER_SECONDS
    started = time.process_time()
    watching = cputime.watch(started, seconds, _ran_too_long)
    try:
        parts: list[str] = []
        size = 0
        for chunk in template.generate(**context):
            size += len(chunk)
            if size > max_chars:
                raise RenderLimit(
                    f"the template produced more than {max_chars:,} characters for one face (limits.face_html_chars)"
                )
            if time.process_time() - started > seconds:
                raise _ran_too_long(seconds)
            parts.append(chunk)
        return "".join(parts)
    finally:
        cputime.unwatch(watching)


def _ran_too_long(seconds: float) -> RenderLimit:
    return RenderLimit(f"the template ran for more than {seconds:g} s and was stopped")


class _BoundedCode(CodeGenerator):
    """Jinja2's code generator, with every ``~`` and filter result checked by :func:`printer.sheets.sizes.produced`
    and every block's output collected in a :class:`printer.sheets.sizes.BoundedBuffer`."""

    def buffer(self, frame: Frame) -> None:
        frame.buffer = self.temporary_identifier()
        self.writeline(f"{frame.buffer} = environment.bounded_buffer()")

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        # as Jinja2 joins a ``~`` chain, with each operand weighed before it is written out (a list of 5,000
        # references to one long string) and the result checked
        ctx = frame.eval_ctx
        join = (
            "(markup_join if context.eval_ctx.volatile else str_join)"
            if ctx.volatile
            else "markup_join"
            if ctx.autoescape
            else "str_join"
        )
        self.write(f"environment.produced({join}((")
        for operand in node.nodes:
            self.write("environment.weighed(")
            self.visit(operand, frame)
            self.write("), ")
        self.write(")))")

    def _output_child_pre(self, node: nodes.Expr, frame: Frame, finalize: CodeGenerator._FinalizeInfo) -> None:
        super()._output_child_pre(node, frame, finalize)
        self.write("environment.weighed(")

    def _output_child_post(self, node: nodes.Expr, frame: Frame, finalize: CodeGenerator._FinalizeInfo) -> None:
        self.write(")")
        super()._output_child_post(node, frame, finalize)

    def visit_Filter(self, node: nodes.Filter, frame: Frame) -> None:
        if node.name in _KEEPS_VALUE:  # gives one of its arguments, a part of one, or a number: nothing to count
            super().visit_Filter(node, frame)
            return
        self.write("environment.produced(")
        super().visit_Filter(node, frame)
        self.write(")")

    def visit_Getitem(self, node: nodes.Getitem, frame: Frame) -> None:
        # a slice (``s[1:]``) is a new string or list, made without the environment's getitem: counted
        if not isinstance(node.arg, nodes.Slice):
            super().visit_Getitem(node, frame)
            return
        self.write("environment.produced(")
        super().visit_Getitem(node, frame)
        self.write(")")


class BoundedTemplate(jinja2.Template):
    """A template whose render counts, from zero, the characters it produces (:func:`printer.sheets.sizes.
    budget_scope`), its output included."""

    def generate(self, *args: Any, **kwargs: Any) -> Iterator[str]:
        with sizes.budget_scope():
            for chunk in super().generate(*args, **kwargs):
                sizes.produced(chunk)
                yield chunk

    def render(self, *args: Any, **kwargs: Any) -> str:
        return "".join(self.generate(*args, **kwargs))


class TemplateSandbox(SandboxedEnvironment):
    """A sandboxed, autoescaping Jinja2 environment with bounded ``*`` and ``**`` (see the module docstring).

    Keyword arguments go to :class:`~jinja2.sandbox.SandboxedEnvironment`;
    ``autoescape`` defaults to on and ``undefined`` to
    :class:`~jinja2.StrictUndefined` (an unknown variable is an error, not
    an empty string).
    """

    intercepted_binops = frozenset({"*", "**", "+", "%"})
    code_generator_class = _BoundedCode
    template_class = BoundedTemplate
    produced = staticmethod(sizes.produced)
    weighed = staticmethod(sizes.weighed)
    bounded_buffer = sizes.BoundedBuffer

    def __init__(self, **options: Any) -> None:
        options.setdefault("autoescape", True)
        options.setdefault("undefined", jinja2.StrictUndefined)
        super().__init__(**options)
        self.filters = dict(self.filters)
        sizes.bounded_filters(self.filters)

    @classmethod
    def for_templates(cls, template_dirs: Iterable[Path], allowed_roots: Iterable[Path]) -> TemplateSandbox:
        """The environment every template kind renders in: templates found on ``template_dirs`` (first wins),
        includes kept inside ``allowed_roots``, autoescaped, strict undefined, block tags trimmed."""
        return cls(
            loader=ContainedLoader([str(d) for d in template_dirs], list(allowed_roots)),
            trim_blocks=True,
            lstrip_blocks=True,
            bytecode_cache=COMPILED,
        )

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """The template's tree, without the white space its ``{% filter spaceless %}`` blocks would drop from
        their own text at every render (:func:`printer.sheets.spaceless.drop_static_gaps`), when ``spaceless`` is
        printer's filter."""
        tree = super()._parse(source, name, filename)
        if self.filters.get("spaceless") is spaceless.spaceless:
            spaceless.drop_static_gaps(tree)
        return tree

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute`` in a template, as Jinja2's sandbox finds it; for a plain dict (a card's data), found
        without the sandbox's checks: a dict has no attribute but its class's, so a name that is not one of those
        is a key (the value, or undefined), and its read methods (``card.get``) are safe."""
        if type(obj) is dict:
            if attribute in _DICT_READS:
                return getattr(obj, attribute)
            if attribute not in _DICT_ATTRIBUTES:
                try:
                    return obj[attribute]
                except KeyError:
                    return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)

    def call(self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N807 (Jinja2's own signature)
        """Calls from templates, with the string methods that could allocate gigabytes bounded, and the result
        checked (:mod:`printer.sheets.sizes`)."""
        if type(getattr(__obj, "__self__", None)) is dict and __obj.__name__ in _DICT_READS:
            # a read of a plain dict (``card.get('cost')``): nothing made, nothing unsafe; called as Jinja2 calls it
            if kwargs:
                kwargs.pop("_loop_vars", None)
                kwargs.pop("_block_vars", None)
            return __obj(*args, **kwargs)
        method = getattr(__obj, "__wrapped__", __obj)  # str.format comes wrapped by the sandbox
        name = getattr(method, "__name__", "")
        if isinstance(getattr(method, "__self__", None), str) and name in _SIZED_STR_METHODS:
            ints = [a for a in (*args, *kwargs.values()) if isinstance(a, int) and not isinstance(a, bool)]
            if any(size > MAX_REPEAT for size in ints):
                raise SecurityError(f"a template may not pad a string to more than {MAX_REPEAT:,} characters")
        sizes.check_method(method, args, kwargs)
        if name == "generate_lorem_ipsum" and any(isinstance(a, int) and a > 1_000 for a in (*args, *kwargs.values())):
            raise RenderLimit("lipsum() may make at most 1,000 paragraphs of at most 1,000 words")
        return sizes.produced(super().call(__context, __obj, *args, **kwargs))

    def call_binop(self, context: Context, operator_name: str, left: Any, right: Any) -> Any:
        if operator_name == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and len(seq) * times > MAX_REPEAT:
                    raise SecurityError(
                        f"a template may not build a sequence of more than {MAX_REPEAT:,} items with '*'"
                    )
            return sizes.produced(operator.mul(left, right))
        if operator_name == "**":
            if isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT:
                raise SecurityError(f"a template may not raise to a power over {MAX_EXPONENT} with '**'")
            return operator.pow(left, right)
        if operator_name == "+":
            if isinstance(left, (str, list)) and isinstance(right, (str, list)):
                if isinstance(left, str):
                    sizes.expect(len(left) + len(right))
                return sizes.produced(operator.add(left, right))
            return operator.add(left, right)
        if operator_name == "%":
            sizes.check_percent(left, right)
            sizes.check_percent_size(left, right)
            return sizes.produced(operator.mod(left, right))
        return super().call_binop(context, operator_name, left, right)


#: the options :meth:`TemplateSandbox.for_templates` gives every environment: compiled code depends on them
_OPTIONS = "autoescape trim_blocks lstrip_blocks StrictUndefined"
#: the compiled templates, shared by every environment :meth:`TemplateSandbox.for_templates` makes (they have the
#: same options): a build watching for saves, ``printer serve`` and the jobs of one build compile a template once,
#: and a command finds it compiled by an earlier one (:mod:`printer.sheets.bytecode`)
COMPILED = bytecode.Compiled(
    functools.partial(bytecode.user_folder, _OPTIONS, (__file__, str(sizes.__file__), str(spaceless.__file__)))
)


class ContainedLoader(jinja2.FileSystemLoader):
    """A :class:`~jinja2.FileSystemLoader` that refuses template files whose real path is outside ``roots``.

    ``searchpath`` is the template search path; ``roots`` the folders
    templates may really be in (printer's bundled templates always may). A
    template reached through a symbolic link out of them raises
    :class:`~jinja2.exceptions.SecurityError` instead of being read.
    """

    def __init__(self, searchpath: list[str], roots: Iterable[str | Path], **options: Any) -> None:
        from printer.paths import bundled_root

        super().__init__(searchpath, **options)
        self.roots = [Path(r).resolve() for r in [*roots, bundled_root() / "templates"]]

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = template.split("/")
        for folder in self.searchpath:
            if os.path.isfile(os.path.join(folder, *pieces)):
                candidate = Path(folder, *pieces)
                real = candidate.resolve()
                if not any(real.is_relative_to(root) for root in self.roots):
                    link = f" (a link to {real})" if real != candidate.absolute() else ""
                    raise SecurityError(f"template {candidate}{link} is outside the project")
                break
        else:  # raised as FileSystemLoader raises it, without looking for the file again: a card type's own
            # template that does not exist (``card-<type>.html.j2``) is asked for at every card
            jinja2.loaders.split_template_path(template)
            searched = ", ".join(repr(p) for p in self.searchpath)
            plural = "path" if len(self.searchpath) == 1 else "paths"
            raise jinja2.TemplateNotFound(template, f"{template!r} not found in search {plural}: {searched}")
        return super().get_source(environment, template)


_PLAIN = (str, int, float, bool, type(None))
#: the plain types a value is known by from its type alone (a subclass takes the longer way, to the same result)
_EXACTLY_PLAIN = frozenset({*_PLAIN, Markup})


class TemplateHelper:
    """Base of printer's own template helper objects (a lazily prepared art URL, say): allowed in a context.

    A subclass holds no file object and offers no method that reads or
    writes; its private state is out of a sandboxed template's reach.
    """


def _is_helper_function(value: Any) -> bool:
    """A function or bound method defined in printer's own code (``icon_url``, ``art_for``...)."""
    if isinstance(value, types.MethodType):
        value = value.__func__
    return isinstance(value, types.FunctionType) and (value.__module__ or "").startswith("printer.")


def template_data(value: Any) -> Any:
    """``value`` as plain data for a template: the only values a template context may hold.

    Strings (and :class:`~markupsafe.Markup`), numbers, booleans and ``None``
    pass as they are; mappings become dicts and sequences lists, converted
    item by item; a dataclass becomes a dict of its fields and properties (a
    sheet's faces, a rules chapter); a path becomes its text (a
    ``file:`` URL is built by printer, never by a template); dates become ISO
    text. printer's own helper functions and :class:`TemplateHelper` objects
    pass. Anything else raises :class:`TypeError`: a template must never get
    an object with I/O methods (``Path.read_text``, ``open``...).
    """
    kind = type(value)
    if kind in _EXACTLY_PLAIN:
        return value
    if kind is dict:  # a card's data, read from JSON: most of it plain already, taken as it is without a call
        return {str(k): v if type(v) in _EXACTLY_PLAIN else template_data(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _EXACTLY_PLAIN else template_data(v) for v in value]
    if isinstance(value, _PLAIN) or isinstance(value, TemplateHelper):
        return value
    if isinstance(value, Mapping):
        return {str(k): template_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [template_data(v) for v in value]
    if isinstance(value, PurePath):
        return value.as_posix()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: template_data(getattr(value, name)) for name in _public_names(type(value))}
    if _is_helper_function(value):
        return value
    raise TypeError(f"not plain data for a template: {type(value).__name__}")


@functools.lru_cache(maxsize=256)
def _public_names(klass: type) -> tuple[str, ...]:
    """The names a template sees of a dataclass ``klass``'s instances: its fields, then the public properties of
    it and its bases (first definition wins)."""
    names = {f.name: None for f in dataclasses.fields(klass)}
    for base in klass.__mro__:
        for name, member in vars(base).items():
            if isinstance(member, property) and not name.startswith("_"):
                names.setdefault(name, None)
    return tuple(names)


def template_context(context: Mapping[str, Any]) -> dict[str, Any]:
    """Every value of a template context through :func:`template_data`."""
    return {name: template_data(value) for name, value in context.items()}


def _template_line(exc: BaseException, filename: str | None) -> int | None:
    """The line of ``filename`` (a template) where ``exc`` was raised, from its traceback (Jinja2 rewrites it)."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if filename and tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def template_problem(
    exc: BaseException, filename: str | None, while_rendering: str | Location | None = None
) -> Problem:
    """``exc``, raised while rendering the template ``filename``, as a problem located ``file:line``.

    Syntax errors carry their own file and line; other errors are located by
    the template frame of their traceback. ``while_rendering`` (a card's
    location, say) becomes the hint.
    """
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = f"{exc.filename or filename}:{exc.lineno}"
        return Problem(
            where,
            f"template syntax error: {exc.message}",
            f"while rendering {while_rendering}" if while_rendering else None,
            code="template",
        )
    line = _template_line(exc, filename)
    where = f"{filename}:{line}" if filename and line else str(filename or "template")
    if isinstance(exc, UnicodeDecodeError):
        message = (
            f"template is not UTF-8 text: byte 0x{exc.object[exc.start]:02x} at offset {exc.start} cannot be decoded"
        )
    elif isinstance(exc, jinja2.TemplatesNotFound):
        message = f"template error: none of the templates {', '.join(map(repr, exc.templates))} was found"
    elif isinstance(exc, jinja2.TemplateNotFound):
        message = f"template error: template {exc.name!r} (included or extended) was not found"
    elif isinstance(exc, jinja2.UndefinedError):
        message = f"template error: {exc.message}"
    elif isinstance(exc, SecurityError):
        message = f"template error: refused: {exc}"
    elif isinstance(exc, jinja2.TemplateError):
        message = f"template error: {exc}"
    else:
        message = f"template error: {type(exc).__name__}: {exc}"
    return Problem(where, message, f"while rendering {while_rendering}" if while_rendering else None, code="template")
