#!/usr/bin/env python3
"""Writes the html5lib-tests inputs the HTML rewriter's tests use, and what a
WHATWG parser makes of an `img` placed in each, for Html5libConformanceTests.

    pip install html5lib==1.1
    python3 make_expectations.py PATH/TO/html5lib-tests [COMMIT]

reads tokenizer/*.test and tree-construction/**/*.dat at COMMIT of a clone of
github.com/html5lib/html5lib-tests (default 9329e64, the last commit with the
tree-construction tests before they moved to web-platform-tests) and writes
inputs.json (every input that is valid Unicode, in order) and expectations.json
(per placement: the input's index, the UTF-8 byte offset of the `img`, and
whether html5lib 1.1 sees it as a start tag and puts it in the tree, 1 or 0).

An `img` is placed at the end of each input and after each `>` in it. Its `src` names the rewriter tests' CDN
host, which no input contains. "Start tag" is html5lib's tokenizer as its tree
builder drives it (raw text, script data, CDATA in foreign content), so it is
what a browser's tokenizer sees; "tree" is whether the document then has an
HTML `img` with that `src`.
"""
import json
import re
import subprocess
import sys

import html5lib
from html5lib import _tokenizer, constants

MARKER = "http://img.example.com/html5lib-placed.jpg"
IMG = '<img src="%s">' % MARKER
HOST = "img.example.com"


def git_files(repo, commit, pattern):
    names = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", commit],
                           check=True, capture_output=True, text=True).stdout.split("\n")
    return sorted(name for name in names if re.fullmatch(pattern, name))


def git_show(repo, commit, name):
    return subprocess.run(["git", "-C", repo, "show", "%s:%s" % (commit, name)],
                          check=True, capture_output=True).stdout.decode("utf-8")


def unescape(text):
    """The tokenizer tests' doubleEscaped form: \\uXXXX sequences."""
    return re.sub(r"\\u([0-9A-Fa-f]{4})", lambda m: chr(int(m.group(1), 16)), text)


def tokenizer_inputs(repo, commit):
    for name in git_files(repo, commit, r"tokenizer/[^/]+\.test"):
        suite = json.loads(git_show(repo, commit, name))
        for key in ("tests", "xmlViolationTests"):
            for index, test in enumerate(suite.get(key, [])):
                text = test["input"]
                if test.get("doubleEscaped"):
                    text = unescape(text)
                yield "%s#%s%d" % (name, "" if key == "tests" else "xml", index), text


def tree_inputs(repo, commit):
    headers = ("#errors", "#new-errors", "#document", "#document-fragment", "#script-off", "#script-on")
    for name in git_files(repo, commit, r"tree-construction/.+\.dat"):
        lines = git_show(repo, commit, name).split("\n")
        index = 0
        position = 0
        while position < len(lines):
            if lines[position] != "#data":
                position += 1
                continue
            position += 1
            data = []
            while position < len(lines) and not lines[position].startswith(headers):
                data.append(lines[position])
                position += 1
            yield "%s#%d" % (name, index), "\n".join(data)
            index += 1


def is_valid_unicode(text):
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


class Recorder:
    """Whether html5lib's tokenizer, as its parser drives it, emitted the marked start tag."""

    seen = False
    tokens = _tokenizer.HTMLTokenizer.__iter__

    @staticmethod
    def recording_iter(tokenizer):
        for token in Recorder.tokens(tokenizer):
            if token["type"] == constants.tokenTypes["StartTag"] and token["name"] in ("img", "image"):
                data = token["data"]
                items = data.items() if isinstance(data, dict) else data
                values = [value for name, value in items if name == "src"]
                if values and values[0] == MARKER:
                    Recorder.seen = True
            yield token


_tokenizer.HTMLTokenizer.__iter__ = Recorder.recording_iter


def parse(document):
    """(html5lib's tokenizer saw the img as a start tag, the tree has it), scripting on."""
    Recorder.seen = False
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=True)
    tree = parser.parse(document, scripting=True)
    in_tree = any(element.get("src") == MARKER for element in tree.iter("{http://www.w3.org/1999/xhtml}img"))
    return Recorder.seen, in_tree


def main():
    repo = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else "9329e64"
    inputs = []
    for source, generator in (("tokenizer", tokenizer_inputs), ("tree-construction", tree_inputs)):
        for name, text in generator(repo, commit):
            if is_valid_unicode(text):
                inputs.append({"name": name, "input": text})
    placements = []
    for index, item in enumerate(inputs):
        text = item["input"]
        if HOST in text:
            continue
        offsets = [len(text)] + [match.end() for match in re.finditer(">", text) if match.end() < len(text)]
        for offset in offsets:
            document = text[:offset] + IMG + text[offset:]
            start_tag, in_tree = parse(document)
            placements.append([index, len(text[:offset].encode("utf-8")), int(start_tag), int(in_tree)])
    with open("inputs.json", "w", encoding="utf-8") as out:
        json.dump({"commit": commit, "inputs": inputs}, out, ensure_ascii=False, indent=0)
        out.write("\n")
    with open("expectations.json", "w", encoding="utf-8") as out:
        out.write('{"html5lib": "%s", "img": %s, "fields": ["input", "offset", "startTag", "inTree"],\n'
                  % (html5lib.__version__, json.dumps(IMG)))
        out.write('"placements": [\n%s\n]}\n' % ",\n".join(json.dumps(p) for p in placements))
    print("%d inputs, %d placements, %d start tags, %d in the tree" % (
        len(inputs), len(placements), sum(p[2] for p in placements), sum(p[3] for p in placements)))


if __name__ == "__main__":
    main()
