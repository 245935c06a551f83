"""Parse a game file into the AST (`gdl.ast`); `gdl.syntax_errors` words its syntax errors."""

from __future__ import annotations

import re
from contextlib import contextmanager
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from lark import Lark, Token, Transformer_NonRecursive, v_args
from lark.exceptions import UnexpectedInput, VisitError
from lark.indenter import Indenter

from gdl import ast
from gdl.errors import GdlSyntaxError, Source
from gdl.limits import MAX_DIGITS, MAX_NESTING
from gdl.syntax_errors import syntax_error, tabs_and_spaces


class _Mistake(Exception):
    """A mistake found while lexing or building the tree (a bad escape, a bad dedent...), with
    where it is; `parse` turns it into a GdlSyntaxError."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message, line, column)
        self.message = message
        self.line = line
        self.column = column


_NO_BLOCK = "this line's indentation matches no enclosing block"


class _GdlIndenter(Indenter):
    """Turns indentation into _INDENT/_DEDENT tokens, as Python does."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def handle_NL(self, token: Token) -> Iterator[Token]:
        """Like Lark's, but a bad dedent reports the line it happened on."""
        if self.paren_level > 0:
            return
        yield token
        indent_text = token.rsplit("\n", 1)[1]
        indent = indent_text.count(" ") + indent_text.count("\t") * self.tab_len
        if indent > self.indent_level[-1]:
            self.indent_level.append(indent)
            yield Token.new_borrow_pos(self.INDENT_type, indent_text, token)
            return
        while indent < self.indent_level[-1]:
            self.indent_level.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, indent_text, token)
        if indent != self.indent_level[-1]:
            raise _Mistake(_NO_BLOCK, token.end_line or 1, indent + 1)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = (Path(__file__).parent / "grammar.lark").read_text()
    return Lark(
        grammar,
        parser="lalr",
        postlex=_GdlIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", "value"],
        cache=True,  # the LALR tables, kept in the temporary directory between runs
    )


def _at(meta: Any) -> dict[str, int]:
    return {"line": meta.line, "column": meta.column}


def _token_at(token: Token) -> dict[str, int]:
    return {"line": token.line or 1, "column": token.column or 1}


def _number_value(digits: Token) -> int | Fraction:
    if len(digits) > MAX_DIGITS:
        raise _Mistake(f"this number has more than {MAX_DIGITS} digits", digits.line or 1, digits.column or 1)
    return Fraction(str(digits)) if digits.type == "DECIMAL" else int(digits)


_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)", re.DOTALL)
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_ESCAPES_TEXT = r'\" \\ \n \t \r \xHH \uHHHH \UHHHHHHHH'
"""The escapes a string may hold, as the messages list them."""


def _string_value(token: Token) -> str:
    """The text of a string literal, its escapes decoded; a bad escape or a control character
    is a mistake at its own column (a string is on one line)."""
    body = str(token)[1:-1]
    line, first = token.line or 1, (token.column or 1) + 1

    control = _CONTROL.search(body)
    if control is not None:
        code = f"{ord(control.group()):02x}"
        raise _Mistake(
            f"a string cannot hold the control character U+{code.upper():0>4}; write it as an escape (`\\x{code}`)",
            line, first + control.start(),
        )

    def decode(match: re.Match[str]) -> str:
        escape = match.group(1)
        if escape in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[escape]
        where = (line, first + match.start())
        if escape[0] in _HEX_ESCAPES and len(escape) > 1:
            code = int(escape[1:], 16)
            if code > 0x10FFFF:
                raise _Mistake(f"`\\{escape}` is not a character (Unicode goes up to 10FFFF)", *where)
            return chr(code)
        if escape in _HEX_ESCAPES:
            raise _Mistake(f"`\\{escape}` needs exactly {_HEX_ESCAPES[escape]} hexadecimal digits, as in `\\{escape}{'0' * (_HEX_ESCAPES[escape] - 2)}41`", *where)
        raise _Mistake(f"`\\{escape}` is not an escape; a string knows {_ESCAPES_TEXT} (`\\\\` for a backslash)", *where)

    return _ESCAPE.sub(decode, body)


def _binary(op: str) -> Any:
    def build(self: Any, meta: Any, left: ast.Expr, right: ast.Expr) -> ast.Binary:
        return ast.Binary(op, left, right, **_at(meta))

    return build


@v_args(meta=True, inline=True)
class _ToAst(Transformer_NonRecursive):  # type: ignore[type-arg]
    """Turns Lark's parse tree into `gdl.ast` nodes; one method a grammar alias (without
    recursion, so that deep nesting reaches the nesting check instead of Python's limit)."""

    # ---- declarations
    def start(self, meta: Any, *declarations: ast.Declaration) -> ast.Program:
        return ast.Program(tuple(declarations), line=1, column=1)

    def value(self, meta: Any, expr: ast.Expr) -> ast.Expr:
        return expr

    def game_name(self, meta: Any, title: Token) -> ast.GameName:
        return ast.GameName(_string_value(title), **_at(meta))

    def players(self, meta: Any, names: tuple[str, ...]) -> ast.Players:
        return ast.Players(names, **_at(meta))

    def symbols(self, meta: Any, names: tuple[str, ...]) -> ast.Symbols:
        return ast.Symbols(names, **_at(meta))

    def name_list(self, meta: Any, *names: Token) -> tuple[str, ...]:
        return tuple(str(n) for n in names)

    def param(self, meta: Any, name: Token, default: ast.Expr) -> ast.Param:
        return ast.Param(str(name), default, **_token_at(name))

    def state(self, meta: Any, *fields: ast.Field) -> ast.StateDecl:
        return ast.StateDecl(fields, **_at(meta))

    def field(self, meta: Any, name: Token, initial: ast.Expr) -> ast.Field:
        return ast.Field(str(name), initial, **_token_at(name))

    def definition(self, meta: Any, name: Token, value: ast.Expr) -> ast.Definition:
        return ast.Definition(str(name), value, **_token_at(name))

    def function(self, meta: Any, name: Token, params: Any, body: Any) -> ast.Function:
        return ast.Function(str(name), params or (), body, **_token_at(name))

    function_block = function

    def result(self, meta: Any, target: ast.Target, body: ast.Block) -> ast.Result:
        return ast.Result(target, body, **_at(meta))

    def tree(self, meta: Any, *rows: ast.TreeRow) -> ast.Tree:
        return ast.Tree(rows, **_at(meta))

    def tree_row(self, meta: Any, parent: Token, *children: ast.TreeChild) -> ast.TreeRow:
        return ast.TreeRow(str(parent), children, **_token_at(parent))

    def tree_node(self, meta: Any, name: Token) -> ast.TreeChild:
        return ast.TreeChild(str(name), None, **_at(meta))

    def tree_leaf(self, meta: Any, value: ast.LeafValue) -> ast.TreeChild:
        return ast.TreeChild(None, value, **_at(meta))

    def tree_named_leaf(self, meta: Any, name: Token, value: ast.LeafValue) -> ast.TreeChild:
        return ast.TreeChild(str(name), value, **_at(meta))

    def payoff_vector(self, meta: Any, *payoffs: int | Fraction) -> tuple[int | Fraction, ...]:
        return payoffs

    def signed_number(self, meta: Any, digits: Token) -> int | Fraction:
        return _number_value(digits)

    def negative_number(self, meta: Any, digits: Token) -> int | Fraction:
        return -_number_value(digits)

    # ---- statements
    def block(self, meta: Any, *statements: ast.Statement) -> ast.Block:
        return ast.Block(statements, **_at(meta))

    def let(self, meta: Any, target: ast.Target, value: ast.Expr) -> ast.Let:
        return ast.Let(target, value, **_at(meta))

    def assign(self, meta: Any, place: ast.Place, value: ast.Expr) -> ast.Assign:
        return ast.Assign(place, None, value, **_at(meta))

    def augmented_assign(self, meta: Any, place: ast.Place, op: Token, value: ast.Expr) -> ast.Assign:
        return ast.Assign(place, str(op)[0], value, **_at(meta))

    def return_(self, meta: Any, value: ast.Expr) -> ast.Return:
        return ast.Return(value, **_at(meta))

    def if_(self, meta: Any, condition: ast.Expr, body: ast.Block | ast.Statement, *rest: Any) -> ast.If:
        branches = [(condition, _as_block(body))]
        otherwise = None
        for part in rest:
            if part[0] == "elif":
                branches.append((part[1], part[2]))
            else:
                otherwise = part[1]
        return ast.If(tuple(branches), otherwise, **_at(meta))

    def elif_part(self, meta: Any, condition: ast.Expr, body: ast.Block | ast.Statement) -> tuple[Any, ...]:
        return ("elif", condition, _as_block(body))

    def else_part(self, meta: Any, body: ast.Block | ast.Statement) -> tuple[Any, ...]:
        return ("else", _as_block(body))

    def for_(self, meta: Any, target: ast.Target, iterable: ast.Expr, body: ast.Block) -> ast.For:
        return ast.For(target, iterable, body, **_at(meta))

    def while_(self, meta: Any, condition: ast.Expr, body: ast.Block) -> ast.While:
        return ast.While(condition, body, **_at(meta))

    def place(self, meta: Any, name: Token, *indexes: ast.Expr) -> ast.Place:
        return ast.Place(str(name), indexes, **_at(meta))

    def target_name(self, meta: Any, name: Token) -> ast.NameTarget:
        return ast.NameTarget(str(name), **_at(meta))

    def target_tuple(self, meta: Any, *items: ast.Target) -> ast.TupleTarget:
        return ast.TupleTarget(items, **_at(meta))

    # ---- expressions
    def conditional(self, meta: Any, then: ast.Expr, condition: ast.Expr, otherwise: ast.Expr) -> ast.Conditional:
        return ast.Conditional(condition, then, otherwise, **_at(meta))

    or_ = _binary("or")
    and_ = _binary("and")
    add = _binary("+")
    subtract = _binary("-")
    multiply = _binary("*")
    divide = _binary("/")
    floor_divide = _binary("//")
    modulo = _binary("%")
    power = _binary("**")

    def not_(self, meta: Any, operand: ast.Expr) -> ast.Unary:
        return ast.Unary("not", operand, **_at(meta))

    def negate(self, meta: Any, operand: ast.Expr) -> ast.Unary:
        return ast.Unary("-", operand, **_at(meta))

    def compare(self, meta: Any, first: ast.Expr, *rest: Any) -> ast.Compare:
        return ast.Compare(first, tuple(rest[0::2]), tuple(rest[1::2]), **_at(meta))

    def compare_op(self, meta: Any, *tokens: Token) -> str:
        return " ".join(str(t) for t in tokens)

    def index(self, meta: Any, target: ast.Expr, index: ast.Expr) -> ast.Index:
        return ast.Index(target, index, **_at(meta))

    def slice(self, meta: Any, target: ast.Expr, start: ast.Expr | None, stop: ast.Expr | None) -> ast.Slice:
        return ast.Slice(target, start, stop, **_at(meta))

    def subscript(self, meta: Any, *items: ast.Expr) -> ast.Expr:
        if len(items) == 1:
            return items[0]
        return ast.TupleExpr(items, **_at(meta))

    def call(self, meta: Any, name: Token, args: Any) -> ast.Call:
        return ast.Call(str(name), tuple(args or ()), **_at(meta))

    def call_generator(self, meta: Any, name: Token, element: ast.Expr, clauses: Any) -> ast.Call:
        generator = ast.Comprehension("generator", element, None, clauses, line=element.line, column=element.column)
        return ast.Call(str(name), (generator,), **_at(meta))

    def arguments(self, meta: Any, *items: ast.Expr) -> tuple[ast.Expr, ...]:
        return items

    def number(self, meta: Any, digits: Token) -> ast.Number:
        return ast.Number(_number_value(digits), **_at(meta))

    decimal = number

    def string(self, meta: Any, text: Token) -> ast.String:
        return ast.String(_string_value(text), **_at(meta))

    def true(self, meta: Any) -> ast.Boolean:
        return ast.Boolean(True, **_at(meta))

    def false(self, meta: Any) -> ast.Boolean:
        return ast.Boolean(False, **_at(meta))

    def name(self, meta: Any, token: Token) -> ast.Name:
        return ast.Name(str(token), **_at(meta))

    def empty_tuple(self, meta: Any) -> ast.TupleExpr:
        return ast.TupleExpr((), **_at(meta))

    def tuple_(self, meta: Any, *items: ast.Expr) -> ast.TupleExpr:
        return ast.TupleExpr(items, **_at(meta))

    def list_(self, meta: Any, items: Any) -> ast.ListExpr:
        return ast.ListExpr(tuple(items or ()), **_at(meta))

    def list_comprehension(self, meta: Any, element: ast.Expr, clauses: Any) -> ast.Comprehension:
        return ast.Comprehension("list", element, None, clauses, **_at(meta))

    def map_(self, meta: Any, *items: Any) -> ast.MapExpr:
        return ast.MapExpr(tuple(i for i in items if i is not None), **_at(meta))

    def map_comprehension(self, meta: Any, item: tuple[ast.Expr, ast.Expr], clauses: Any) -> ast.Comprehension:
        return ast.Comprehension("map", item[1], item[0], clauses, **_at(meta))

    def set_(self, meta: Any, *items: ast.Expr) -> ast.SetExpr:
        return ast.SetExpr(items, **_at(meta))

    def set_comprehension(self, meta: Any, element: ast.Expr, clauses: Any) -> ast.Comprehension:
        return ast.Comprehension("set", element, None, clauses, **_at(meta))

    def map_item(self, meta: Any, key: ast.Expr, value: ast.Expr) -> tuple[ast.Expr, ast.Expr]:
        return (key, value)

    def comprehension(self, meta: Any, *parts: Any) -> tuple[ast.ForClause | ast.IfClause, ...]:
        clauses: list[ast.ForClause | ast.IfClause] = []
        items = list(parts)
        while items:
            target = items.pop(0)
            iterable = items.pop(0)
            clauses.append(ast.ForClause(target, iterable, line=target.line, column=target.column))
            while items and not isinstance(items[0], (ast.NameTarget, ast.TupleTarget)):
                condition = items.pop(0)
                clauses.append(ast.IfClause(condition, line=condition.line, column=condition.column))
        return tuple(clauses)


def _as_block(body: ast.Block | ast.Statement) -> ast.Block:
    """A branch written on the line of its `if` is a block of one statement."""
    if isinstance(body, ast.Block):
        return body
    return ast.Block((body,), line=body.line, column=body.column)


def parse(text: str, name: str = "<game>") -> ast.Program:
    """Parse the text of a game file; raise GdlSyntaxError with a located, friendly message."""
    source = Source(name, text)
    text = source.text if source.text.endswith("\n") else source.text + "\n"
    try:
        program: ast.Program = _ToAst().transform(_parser().parse(text, start="start"))
    except _Mistake as error:
        message = error.message + (tabs_and_spaces(text) if error.message == _NO_BLOCK else "")
        raise source.error(GdlSyntaxError, message, error.line, error.column) from None
    except UnexpectedInput as error:
        raise syntax_error(error, text, source, _parser()) from None
    except VisitError as error:
        raise _located(error, source) from None
    check_nesting(program, source)
    return program


def parse_value(text: str, name: str = "<parameter>") -> ast.Expr:
    """Parse a parameter value written as in the language, such as `5` or `(3, 4, 5)`."""
    source = Source(name, text.strip())
    try:
        value: ast.Expr = _ToAst().transform(_parser().parse(source.text + "\n", start="value"))
    except (UnexpectedInput, _Mistake):
        raise source.error(GdlSyntaxError, f"`{text}` is not a value written as in the language (e.g. 5, true, (3, 4, 5))", 1, 1) from None
    except VisitError as error:
        raise _located(error, source) from None
    check_nesting(value, source)
    return value


def _located(error: VisitError, source: Source) -> Exception:
    """The syntax error a mistake found while building the tree stands for."""
    mistake = error.orig_exc
    if isinstance(mistake, _Mistake):
        return source.error(GdlSyntaxError, mistake.message, mistake.line, mistake.column)
    return mistake  # a bug of the transformer, not a user mistake


def check_nesting(node: ast.Node, source: Source) -> None:
    """Refuse a tree nested deeper than the language allows, at its first node too deep."""
    deep = ast.too_deep(node, MAX_NESTING)
    if deep is not None:
        raise source.error(
            GdlSyntaxError,
            f"this is nested more than {MAX_NESTING} levels deep (each operator, call, list, tuple "
            f"and block is one level): give parts of it names of their own",
            deep.line, deep.column,
        )


@contextmanager
def nesting_guard(program: ast.Node, source: Source) -> Iterator[None]:
    """Python's RecursionError, should checking or compiling the tree meet one, as a syntax
    error at the tree's deepest node."""
    try:
        yield
    except RecursionError:
        node = ast.deepest(program)
        raise source.error(
            GdlSyntaxError,
            f"this is nested too deeply to check and compile (the language allows {MAX_NESTING} levels): "
            f"give parts of it names of their own",
            node.line, node.column,
        ) from None
