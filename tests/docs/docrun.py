#!/usr/bin/env python3
"""docrun.py — runs the commands that the documentation shows, so that it cannot
drift from the program.  The convention is described in tests/README.md
("Documentation tests"); in short, in a Markdown file:

  ```console            lines starting with "$ " are commands; the lines after one,
                        up to the next command, are its expected output (stdout and
                        stderr together); a line "..." stands for any number of lines
  ```sh                 every command must exit 0; its output is not compared
  ```LANG file=PATH     not a command: the block's text is written to PATH
  status=N              (console) the block's last command must exit N instead of 0
  dry                   (console, sh) the commands are checked, not run: they need a
                        GPU or Slurm, take long, or are `make test` itself

Each file runs in a fresh directory that looks like a fresh clone: only the files git
tracks are there (those of spaces/, kernels/ and results/ copied, the others linked one by
one), build/gsearch is the binary under test and gsearch is on PATH;
its blocks run in order, and the working directory and exported variables carry over
from one command to the next.

Every relative link of a file must name a file of the repository, and its #anchor a
heading of that file.

usage: docrun.py [FILE.md...]      (default: README.md docs/*.md spaces/README.md
                                    results/README.md tests/README.md)
environment: GSEARCH (the binary, default build/gsearch), DOCS_UPDATE=1 (rewrite the
expected output of console commands that differ), GS_RESULT (receives "passed failed"),
DOCS_TIMEOUT (seconds per command, default 300: the emulated device's real-size matmul
sweep, which the docs run, takes 90 s of a 2-core machine and may share it), times the
slow-machine factor of tests/slow-factor.sh (GS_TEST_SLOW, else from the load).
DOCS_ROOT (tests only) names another repository to mirror instead of this one.
"""

import difflib
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
ROOT = os.path.realpath(os.environ.get("DOCS_ROOT") or HERE)


def slow_factor():
    p = subprocess.run([os.path.join(HERE, "tests", "slow-factor.sh")], stdout=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit(2)
    return int(p.stdout.decode().strip())


TIMEOUT = int(os.environ.get("DOCS_TIMEOUT", "300")) * slow_factor()
UPDATE = os.environ.get("DOCS_UPDATE", "0") not in ("", "0")
ELLIPSIS = "..."
# README.md, then docs/*.md, then these (whose links are checked too).
DEFAULT_FILES = ("README.md", "spaces/README.md", "results/README.md", "tests/README.md")
# Copied into each workspace because commands write there; the rest is linked.
COPIED = ("spaces", "kernels", "results")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
TIME = re.compile(r"[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)? (ms|s|us|µs)\b")
DATE = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


class Block:
    def __init__(self, path, line, lang, attrs, body_start, lines):
        self.path, self.line, self.lang, self.attrs = path, line, lang, attrs
        self.body_start = body_start  # index in the file's lines of the first body line
        self.lines = lines            # the body, without newlines


def parse_blocks(path, text_lines):
    """Every fenced block of a Markdown file, with its info string split into a
    language and key=value (or bare) attributes."""
    blocks, i, n = [], 0, len(text_lines)
    while i < n:
        m = FENCE.match(text_lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.groups()
        words = info.split()
        lang = words[0] if words else ""
        attrs = {}
        for w in words[1:]:
            k, _, v = w.partition("=")
            attrs[k] = v if _ else True
        j = i + 1
        body = []
        while j < n:
            e = text_lines[j]
            if e.strip().startswith(fence[0] * len(fence)) and e.strip().strip(fence[0]) == "":
                break
            body.append(e[len(indent):] if e.startswith(indent) else e.lstrip())
            j += 1
        blocks.append(Block(path, i + 1, lang, attrs, i + 1, body))
        i = j + 1
    return blocks


def complete(cmd):
    """Whether a command's text is complete: no open quote, no trailing backslash."""
    if cmd.endswith("\\"):
        return False
    try:
        shlex.split(cmd, comments=True)
    except ValueError:
        return False
    return True


def sh_commands(block):
    """The commands of an sh block: (line offset, text) for each."""
    cmds, cur, start = [], None, 0
    for k, line in enumerate(block.lines):
        if cur is None:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cur, start = line, k
        else:
            cur += "\n" + line
        if complete(cur):
            cmds.append((start, cur))
            cur = None
    if cur is not None:
        cmds.append((start, cur))
    return cmds


class Cmd:
    def __init__(self, offset, text):
        self.offset, self.text = offset, text
        self.expected = []           # expected output lines
        self.out_first = None        # index in block.lines of the first output line
        self.out_end = None


def console_commands(block):
    """The commands of a console block and the output shown after each."""
    cmds, cur = [], None
    k, lines = 0, block.lines
    while k < len(lines):
        line = lines[k]
        if line.startswith("$ ") or line == "$":
            text = line[2:]
            k += 1
            while not complete(text) and k < len(lines):
                nxt = lines[k]
                text += "\n" + (nxt[2:] if nxt.startswith("> ") else nxt)
                k += 1
            cur = Cmd(k - 1, text)
            cur.out_first = cur.out_end = k
            cmds.append(cur)
            continue
        if cur is None:
            raise ValueError(f"line {block.body_start + k + 1}: output before the first '$ ' command")
        cur.expected.append(line)
        cur.out_end = k + 1
        k += 1
    return cmds


def normalise(text, work):
    text = text.replace(work, "$TMP")
    text = TIME.sub("<time>", text)
    text = DATE.sub("<date>", text)
    lines = [l.rstrip() for l in text.split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def matches(expected, actual):
    """Whether actual equals expected, each line "..." standing for any lines."""
    memo = {}

    def m(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(expected):
            r = j == len(actual)
        elif expected[i] == ELLIPSIS:
            r = any(m(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and expected[i] == actual[j] and m(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    return m(0, 0)


def regenerate(expected_raw, expected_norm, actual_raw, actual_norm):
    """New expected output: the actual lines, except that a run of new lines where
    the old text had "..." stays elided."""
    kept, marks = [], set()
    for e in expected_norm:
        if e == ELLIPSIS:
            marks.add(len(kept))
        else:
            kept.append(e)
    out, used = [], set()
    sm = difflib.SequenceMatcher(None, kept, actual_norm, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if i1 in marks and i1 not in used:
            used.add(i1)
            if tag == "insert":
                out.append(ELLIPSIS)
                continue
            out.append(ELLIPSIS)
        if tag == "equal":
            for k in range(i2 - i1):
                if k and i1 + k in marks:
                    used.add(i1 + k)
                    out.append(ELLIPSIS)
                out.append(actual_raw[j1 + k])
        elif tag in ("replace", "insert"):
            out.extend(actual_raw[j1:j2])
    if len(kept) in marks and len(kept) not in used:
        out.append(ELLIPSIS)
    # An elision that now stands for nothing and sits next to another is dropped.
    tidy = []
    for l in out:
        if l == ELLIPSIS and tidy and tidy[-1] == ELLIPSIS:
            continue
        tidy.append(l)
    return tidy


class Workspace:
    """A directory that looks like a checkout; commands run in it with a shell
    state (working directory, exported variables) carried from one to the next."""

    def __init__(self, gsearch):
        self.dir = os.path.realpath(tempfile.mkdtemp(prefix="gsearch-docs."))
        tracked = self.tracked()
        if tracked is None:  # not a git checkout (an unpacked archive): all of it
            for name in sorted(os.listdir(ROOT)):
                if name in (".git", "build"):
                    continue
                src, dst = os.path.join(ROOT, name), os.path.join(self.dir, name)
                if name in COPIED and os.path.isdir(src):
                    shutil.copytree(src, dst, symlinks=True)
                else:
                    os.symlink(src, dst)
        else:
            for f in tracked:
                src, dst = os.path.join(ROOT, f), os.path.join(self.dir, f)
                if f.split("/")[0] == "build" or not os.path.lexists(src):
                    continue
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                if f.split("/")[0] in COPIED:
                    shutil.copy2(src, dst, follow_symlinks=False)
                else:
                    os.symlink(src, dst)
        os.makedirs(os.path.join(self.dir, "build"), exist_ok=True)
        os.symlink(gsearch, os.path.join(self.dir, "build", "gsearch"))
        self.bin = os.path.join(self.dir, ".bin")
        os.makedirs(self.bin)
        os.symlink(gsearch, os.path.join(self.bin, "gsearch"))
        self.cwd = self.dir
        self.envfile = os.path.join(self.dir, ".env")
        self.cwdfile = os.path.join(self.dir, ".cwd")
        with open(self.envfile, "w") as f:
            f.write(f"export PATH={shlex.quote(self.bin + ':' + os.environ['PATH'])}\n")
            f.write(f"export HOME={shlex.quote(self.dir)}\n")

    @staticmethod
    def tracked():
        """The files git tracks, or None outside a git checkout: only what a fresh
        clone has, so that a store left in results/ by an earlier sweep, or any
        other stray file, changes nothing the commands print."""
        p = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if p.returncode != 0:
            return None
        return [f for f in p.stdout.decode().split("\0") if f]

    # The command runs in a child shell; what it leaves (cwd, exports) is saved
    # for the next.  stdbuf keeps stdout and stderr in the order written.
    SCRIPT = r'''
cd -- "$GSDOC_CWD" 2>/dev/null || cd -- "$GSDOC_ROOT"
. "$GSDOC_ENV"
eval "$GSDOC_CMD"
__rc=$?
pwd > "$GSDOC_CWDFILE"
export -p | grep -v -e ' _STDBUF_' -e ' LD_PRELOAD=' -e ' GSDOC_' -e ' OLDPWD' -e ' PWD=' -e ' SHLVL=' > "$GSDOC_ENV.new"
mv "$GSDOC_ENV.new" "$GSDOC_ENV"
exit $__rc
'''

    def run(self, cmd):
        env = dict(os.environ)
        env.update(GSDOC_CWD=self.cwd, GSDOC_ROOT=self.dir, GSDOC_ENV=self.envfile,
                   GSDOC_CMD=cmd, GSDOC_CWDFILE=self.cwdfile)
        try:
            p = subprocess.run(["timeout", "-k", "5", str(TIMEOUT), "stdbuf", "-oL", "-eL",
                                "bash", "-c", self.SCRIPT],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=env, cwd=self.dir)
        except OSError as e:
            return 127, str(e)
        try:
            with open(self.cwdfile) as f:
                self.cwd = f.read().strip() or self.cwd
        except OSError:
            pass
        return p.returncode, p.stdout.decode("utf-8", "replace")

    def file(self, path, lines):
        dst = os.path.join(self.cwd, path)
        os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
        with open(dst, "w") as f:
            f.write("\n".join(lines) + "\n")

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


OPT = re.compile(r"^(--?[A-Za-z][\w-]*)")


def dry_check(cmd, gsearch, ws):
    """A command that is not run: every program, make target, script and option
    it names must exist.  Returns an error message or None."""
    try:
        words = shlex.split(cmd, comments=True)
    except ValueError as e:
        return f"cannot parse: {e}"
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words.pop(0)
    if not words:
        return None
    prog, args = words[0], words[1:]
    if prog == "make":
        p = subprocess.run(["make", "-n", "-C", ROOT] + args, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        if p.returncode != 0:
            return "make -n " + " ".join(args) + ": " + p.stderr.decode(errors="replace").strip()
        return None
    if prog == "gsearch" or prog.endswith("/gsearch"):
        sub = next((a for a in args if not a.startswith("-")), None)
        helpcmd = [gsearch] + ([sub] if sub else []) + ["--help"]
        p = subprocess.run(helpcmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode != 0:
            return f"gsearch {sub or ''} --help failed (exit {p.returncode}): no such command?"
        text = p.stdout.decode(errors="replace")
        for a in args:
            m = OPT.match(a)
            if m and not re.search(r"(?<![\w-])" + re.escape(m.group(1)) + r"(?![\w-])", text):
                return f"option {m.group(1)} is not in `gsearch {sub or ''} --help`"
        return None
    if "/" in prog:
        path = os.path.join(ROOT, prog)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return f"{prog}: no such executable in the repository"
        with open(path, errors="replace") as f:
            text = f.read()
        for a in args:
            if a.startswith("--") and "=" in a:
                continue  # an option passed through to another program
            m = OPT.match(a)
            if m and m.group(1) not in text:
                return f"option {m.group(1)} is not in {prog}"
        return None
    return None  # another program (squeue, sbatch...): shown for the reader only


def rel(path):
    return os.path.relpath(path, ROOT)


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading):
    """The anchor GitHub gives a heading."""
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")


def anchors(path):
    out, fenced = set(), False
    with open(path) as f:
        for line in f:
            if FENCE.match(line):
                fenced = not fenced
            elif not fenced and line.startswith("#"):
                out.add(slug(line.lstrip("#")))
    return out


def check_links(path, text_lines):
    """Every relative link names a file of the repository, and its #anchor a heading."""
    bad, fenced = [], False
    for n, line in enumerate(text_lines, 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.exists(dest):
                bad.append(f"line {n}: {target}: no such file")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                bad.append(f"line {n}: {target}: no such heading")
    return bad


def run_file(path, gsearch, stats):
    with open(path) as f:
        text_lines = f.read().split("\n")
    bad = check_links(path, text_lines)
    if bad:
        print(f"FAIL    {rel(path)}: links")
        for b in bad:
            print(indent(b))
        stats[1] += 1
    else:
        print(f"ok      {rel(path)}: links")
        stats[0] += 1
    blocks = parse_blocks(path, text_lines)
    runnable = [b for b in blocks if b.lang in ("console", "sh") or "file" in b.attrs]
    if not any(b.lang in ("console", "sh") for b in runnable):
        return
    ws = Workspace(gsearch)
    edits = []  # (first, end, new lines) in text_lines
    try:
        for b in runnable:
            where = f"{rel(path)}:{b.line}"
            if "file" in b.attrs and b.lang not in ("console", "sh"):
                ws.file(b.attrs["file"], b.lines)
                continue
            dry = "dry" in b.attrs
            want_last = int(b.attrs.get("status", 0) or 0)
            try:
                cmds = console_commands(b) if b.lang == "console" else \
                    [Cmd(o, t) for o, t in sh_commands(b)]
            except ValueError as e:
                print(f"FAIL    {where}: {e}")
                stats[1] += 1
                continue
            if not cmds:
                continue
            problems = []
            for n, c in enumerate(cmds):
                label = c.text.split("\n")[0]
                if dry:
                    err = dry_check(c.text, gsearch, ws)
                    if err:
                        problems.append(f"`{label}`: {err}")
                    continue
                rc, out = ws.run(c.text)
                want = want_last if n == len(cmds) - 1 else 0
                if rc >= 124 and rc != want:
                    problems.append(f"`{label}`: timed out or killed (exit {rc})\n" + indent(out))
                    continue
                if re.search(r"Sanitizer|runtime error:", out):
                    problems.append(f"`{label}`: sanitizer report\n" + indent(out))
                    continue
                if rc != want:
                    problems.append(f"`{label}`: exit status {rc}, expected {want}\n" + indent(out))
                    continue
                if b.lang != "console":
                    continue
                exp = normalise("\n".join(c.expected), ws.dir)
                act = normalise(out, ws.dir)
                if matches(exp, act):
                    continue
                if UPDATE:
                    raw = out.replace(ws.dir, "$TMP").rstrip("\n").split("\n") if out.strip() else []
                    raw = [l.rstrip() for l in raw]
                    new = regenerate(c.expected, exp, raw, act)
                    edits.append((b.body_start + c.out_first, b.body_start + c.out_end, new))
                    continue
                diff = difflib.unified_diff(exp, act, "shown", "actual", lineterm="")
                problems.append(f"`{label}`: output differs\n" + indent("\n".join(diff)))
            kind = b.lang + (" dry" if dry else "")
            if problems:
                print(f"FAIL    {where} ({kind})")
                for p in problems:
                    print(indent(p))
                stats[1] += 1
            else:
                print(f"ok      {where} ({kind}, {len(cmds)} command{'s' if len(cmds) != 1 else ''})")
                stats[0] += 1
    finally:
        ws.close()
    if edits:
        for first, end, new in sorted(edits, reverse=True):
            text_lines[first:end] = new
        with open(path, "w") as f:
            f.write("\n".join(text_lines))
        print(f"updated {rel(path)} ({len(edits)} output{'s' if len(edits) != 1 else ''})")
        stats[2] += 1


def indent(text, pad="    "):
    return "\n".join(pad + l for l in text.split("\n"))


def main(argv):
    gsearch = os.environ.get("GSEARCH", os.path.join(ROOT, "build", "gsearch"))
    if not os.path.isabs(gsearch):
        gsearch = os.path.join(ROOT, gsearch)
    files = argv[1:] or [os.path.join(ROOT, f) for f in DEFAULT_FILES[:1]] + \
        sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + \
        [os.path.join(ROOT, f) for f in DEFAULT_FILES[1:]]
    stats = [0, 0, 0]
    if not os.access(gsearch, os.X_OK):
        print(f"docs: FAIL: no executable {gsearch}")
        stats[1] += 1
    else:
        for f in files:
            if not os.path.isfile(f):
                print(f"FAIL    {f}: no such file")
                stats[1] += 1
                continue
            run_file(os.path.abspath(f), gsearch, stats)
    extra = f", {stats[2]} files updated" if stats[2] else ""
    print(f"docs: {stats[0]} passed, {stats[1]} failed{extra}")
    if os.environ.get("GS_RESULT"):
        with open(os.environ["GS_RESULT"], "w") as f:
            f.write(f"{stats[0]} {stats[1]}\n")
    return 1 if stats[1] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
