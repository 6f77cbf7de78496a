#!/usr/bin/env python3
"""make-cases.py — writes the T1 cases of the bad-input table.

Each case is a valid T1 file (BASE) with one field removed, nulled, retyped
or emptied, written as tests/bad/cases/t1-NAME/input.json with a cmd that
checks it.  Run it after changing a case below, then GOLDEN_UPDATE=1
tests/bad/run.sh t1-NAME writes the expected output, which is reviewed by
hand like any golden file."""
import copy
import json
import os

BASE = {
    "ConfigurationSpace": {
        "TuningParameters": [
            {"Name": "TILE", "Type": "int", "Values": [32, 64], "Default": 32},
            {"Name": "UNROLL", "Type": "int", "Values": "[1, 2]", "Default": 1},
        ],
        "Conditions": [{"Expression": "TILE * UNROLL <= 128", "Parameters": ["TILE", "UNROLL"]}],
    },
    "KernelSpecification": {
        "Language": "CUDA",
        "KernelName": "scale",
        "KernelFile": "../../kernel.cu",
        "CompilerOptions": ["-DX=1"],
        "LocalSize": {"X": "TILE"},
        "GlobalSize": {"X": "N // (TILE * UNROLL)"},
        "Arguments": [
            {"Name": "A", "Type": "float", "MemoryType": "Vector", "Size": "N",
             "FillType": "Random", "RandomSeed": 1},
            {"Name": "B", "Type": "float", "MemoryType": "Vector", "Size": "N",
             "AccessType": "WriteOnly"},
            {"Name": "n", "Type": "int32", "MemoryType": "Scalar", "FillValue": "N"},
        ],
    },
    "BenchmarkConfig": {"N": 1024},
}

MISSING = object()


def at(doc, path):
    """The container holding the last step of path, and that step."""
    for step in path[:-1]:
        doc = doc[step]
    return doc, path[-1]


def edit(path, value):
    def f(doc):
        c, k = at(doc, path)
        if value is MISSING:
            del c[k]
        else:
            c[k] = value
    return f


TP0 = ["ConfigurationSpace", "TuningParameters", 0]
KS = ["KernelSpecification"]
ARG0 = KS + ["Arguments", 0]
ARG2 = KS + ["Arguments", 2]

CASES = {
    "control-valid": [],
    # the reproducer: a parameter without Values used in a buffer size
    "values-missing-in-size": [edit(TP0 + ["Values"], MISSING),
                               edit(ARG0 + ["Size"], "N + max(TILE)")],
    "values-null": [edit(TP0 + ["Values"], None)],
    "values-number": [edit(TP0 + ["Values"], 32)],
    "values-object": [edit(TP0 + ["Values"], {"a": 1})],
    "values-empty-list": [edit(TP0 + ["Values"], [])],
    "values-nested-object": [edit(TP0 + ["Values"], [32, {"x": 1}])],
    "values-empty-string": [edit(TP0 + ["Values"], "  ")],
    "name-missing": [edit(TP0 + ["Name"], MISSING)],
    "name-null": [edit(TP0 + ["Name"], None)],
    "name-number": [edit(TP0 + ["Name"], 7)],
    "name-list": [edit(TP0 + ["Name"], ["TILE"])],
    "name-empty": [edit(TP0 + ["Name"], "")],
    "name-reserved": [edit(TP0 + ["Name"], "status")],
    "name-reserved-measured": [edit(TP0 + ["Name"], "warmups")],
    "name-non-ascii": [edit(TP0 + ["Name"], "T\u00c9")],
    "value-non-ascii": [edit(TP0 + ["Type"], "string"), edit(TP0 + ["Values"], ["a", "\u00e9"]),
                        edit(TP0 + ["Default"], "a")],
    "values-expression-non-ascii": [edit(TP0 + ["Values"], "['\u00e9t\u00e9']")],
    "condition-non-ascii": [edit(["ConfigurationSpace", "Conditions", 0, "Expression"],
                                 "TILE > 1  # \u00e9 in a comment is fine")],
    "type-number": [edit(TP0 + ["Type"], 4)],
    "default-object": [edit(TP0 + ["Default"], {"v": 32})],
    "parameter-string": [edit(TP0, "TILE")],
    "parameters-object": [edit(["ConfigurationSpace", "TuningParameters"], {"TILE": [32]})],
    "parameters-null": [edit(["ConfigurationSpace", "TuningParameters"], None)],
    "configuration-space-list": [edit(["ConfigurationSpace"], [])],
    "configuration-space-missing": [edit(["ConfigurationSpace"], MISSING)],
    "conditions-string": [edit(["ConfigurationSpace", "Conditions"], "TILE > 1")],
    "condition-number": [edit(["ConfigurationSpace", "Conditions", 0], 1)],
    "condition-expression-null": [edit(["ConfigurationSpace", "Conditions", 0, "Expression"], None)],
    "condition-parameters-string": [edit(["ConfigurationSpace", "Conditions", 0, "Parameters"], "TILE")],
    "condition-parameter-number": [edit(["ConfigurationSpace", "Conditions", 0, "Parameters", 1], 2)],
    "kernel-specification-string": [edit(KS, "scale")],
    "kernel-name-number": [edit(KS + ["KernelName"], 1)],
    "kernel-file-list": [edit(KS + ["KernelFile"], ["k.cu"])],
    "language-number": [edit(KS + ["Language"], 1)],
    "compiler-options-number": [edit(KS + ["CompilerOptions"], 3)],
    "compiler-option-object": [edit(KS + ["CompilerOptions", 0], {"D": "X"})],
    "local-size-list": [edit(KS + ["LocalSize"], [32])],
    "local-size-empty": [edit(KS + ["LocalSize"], {})],
    "local-size-x-object": [edit(KS + ["LocalSize", "X"], {"v": 1})],
    "global-size-type-number": [edit(KS + ["GlobalSizeType"], 0)],
    "grid-div-number": [edit(KS + ["GridDivX"], 16)],
    "problem-size-empty": [edit(KS + ["ProblemSize"], [])],
    "problem-size-object": [edit(KS + ["ProblemSize"], {"X": 1})],
    "arguments-object": [edit(KS + ["Arguments"], {"A": 1})],
    "argument-string": [edit(ARG0, "A")],
    "argument-type-missing": [edit(ARG0 + ["Type"], MISSING)],
    "argument-type-null": [edit(ARG0 + ["Type"], None)],
    "argument-name-number": [edit(ARG0 + ["Name"], 0)],
    "argument-size-missing": [edit(ARG0 + ["Size"], MISSING)],
    "argument-size-list": [edit(ARG0 + ["Size"], [1024])],
    "argument-memory-type-number": [edit(ARG0 + ["MemoryType"], 1)],
    "argument-fill-type-list": [edit(ARG0 + ["FillType"], ["Random"])],
    "argument-random-seed-string": [edit(ARG0 + ["RandomSeed"], "one")],
    "argument-random-seed-fraction": [edit(ARG0 + ["RandomSeed"], 1.5)],
    "argument-access-type-bool": [edit(ARG0 + ["AccessType"], True)],
    "argument-data-source-missing": [edit(ARG0 + ["FillType"], "BinaryRaw")],
    "scalar-fill-value-missing": [edit(ARG2 + ["FillValue"], MISSING)],
    "scalar-fill-value-object": [edit(ARG2 + ["FillValue"], {"v": 1})],
    "scalar-fill-value-fraction": [edit(ARG2 + ["FillValue"], 1.5)],
    "benchmark-config-list": [edit(["BenchmarkConfig"], [1024])],
    "general-string": [edit(["General"], "x")],
    "huge-integer": [],  # written as text below: JSON itself cannot hold it
    "huge-real": [],
    "top-level-list": [],
    "bom": [],
}

TEXT = {
    "huge-integer": lambda t: t.replace('"Values": [\n     32,', '"Values": [\n     123456789012345678901234567890,', 1),
    "huge-real": lambda t: t.replace('"Values": [\n     32,', '"Values": [\n     1e999,', 1),
    "top-level-list": lambda t: "[" + t + "]",
    "bom": lambda t: "\ufeff" + t,
}

here = os.path.dirname(os.path.abspath(__file__))
cases = os.path.join(here, "..", "cases")
for name, edits in CASES.items():
    doc = copy.deepcopy(BASE)
    for e in edits:
        e(doc)
    text = json.dumps(doc, indent=1) + "\n"
    if name in TEXT:
        new = TEXT[name](text)
        assert new != text, name
        text = new
    d = os.path.join(cases, "t1-" + name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "input.json"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(d, "cmd"), "w") as f:
        f.write("gsearch check input.json\n")
