"""The shape of `gdl/cli/`: one module a command, one registry, no import cycles, and one way out
to the terminal."""

from __future__ import annotations

import ast
from pathlib import Path

import gdl.cli
from gdl.cli import COMMANDS, build_parser

PACKAGE = Path(gdl.cli.__file__).parent
SHARED = {"__init__", "common"}  # the modules that are no command


def modules() -> dict[str, ast.Module]:
    """Every module of the package, parsed, by name."""
    return {path.stem: ast.parse(path.read_text(), str(path)) for path in sorted(PACKAGE.glob("*.py"))}


def package_imports(tree: ast.Module) -> set[str]:
    """The modules of `gdl.cli` that a module imports, wherever the import statement stands;
    `gdl.cli` itself stands for its `__init__`."""
    names = set(modules())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name == "gdl.cli" or a.name.startswith("gdl.cli."))
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative, inside gdl.cli
                module = "gdl.cli" + (f".{module}" if module else "")
            if module == "gdl":
                found.update("gdl.cli" for a in node.names if a.name == "cli")
            elif module == "gdl.cli":  # a submodule, or a name of __init__
                found.update(f"gdl.cli.{a.name}" if a.name in names else "gdl.cli" for a in node.names)
            elif module.startswith("gdl.cli."):
                found.add(module)
    return found


def test_command_modules_import_only_common_and_the_library() -> None:
    for name, tree in modules().items():
        if name == "__init__":
            continue
        allowed = set() if name == "common" else {"gdl.cli.common"}
        assert package_imports(tree) <= allowed, f"gdl/cli/{name}.py imports {sorted(package_imports(tree) - allowed)}"


def test_every_command_module_is_registered_once_and_named_for_its_command() -> None:
    command_modules = set(modules()) - SHARED
    registered = [module.__name__.rsplit(".", 1)[1] for module in COMMANDS]
    assert sorted(registered) == sorted(command_modules)
    assert len(set(registered)) == len(registered)
    for module in COMMANDS:
        assert callable(module.register) and callable(module.run)
    action = next(a for a in build_parser()._actions if a.dest == "command")
    assert list(action.choices) == registered


def test_every_output_of_the_command_line_goes_through_common() -> None:
    """No module but `common` prints or writes: `common.say` makes all text safe for a terminal."""
    for name, tree in modules().items():
        if name == "common":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                called = node.func
                assert not (isinstance(called, ast.Name) and called.id == "print"), f"print in gdl/cli/{name}.py:{node.lineno}"
                assert not (isinstance(called, ast.Attribute) and called.attr in ("write", "writelines")), f"write in gdl/cli/{name}.py:{node.lineno}"


def test_every_package_of_the_project_is_in_the_distribution() -> None:
    """`pip install .` ships exactly the packages pyproject.toml lists: gdl.cli must be one."""
    import tomllib

    root = PACKAGE.parent.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(root).parts)
        for top in ("gdl", "interpreter", "searchers")
        for init in (root / top).rglob("__init__.py")
    }
    assert found <= listed
