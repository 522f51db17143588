#!/usr/bin/env python3
"""Builds the tokenizer parity corpus: a JSON Lines file of {"kind": ..., "text": ...} records.

    python3 tests/oracle/build_corpus.py OUT.jsonl [--size-mb 1.2] [--seed N]

The corpus is meant to break tokenizers, not to look like real data. It mixes, in roughly equal
byte shares, the kinds listed in KINDS below, plus a handful of empty and one-character records.
Everything comes from this file and from the Python standard library that runs it (docstrings and
source of the stdlib's .py files, pydoc's help topics, the LICENSE.txt Python ships, and the
unicodedata tables): no network, no other files. With a fixed seed the output is byte-identical
for one Python installation; another Python version ships other stdlib text and Unicode tables and
so gives a different (equally valid) corpus.

"MB" is 10**6 bytes of UTF-8 text (the "text" fields, not the JSON around them).

Every text is a sequence of Unicode scalar values (no lone surrogates); it may contain any of
them, including NUL, other C0/C1 controls, noncharacters and private-use code points. The JSON is
written as UTF-8 with non-ASCII left raw, except that U+0085, U+2028 and U+2029 are written as
\\u escapes so that line-oriented readers that treat them as line breaks still see one record per
line. Records are separated by "\\n" only.
"""

import argparse
import ast
import json
import os
import random
import sys
import sysconfig
import unicodedata

KINDS = [
    "prose",           # English from stdlib docstrings, pydoc topics, Python's LICENSE.txt
    "code",            # chunks of stdlib .py files (tabs, indentation, long lines)
    "markup",          # JSON, HTML, Markdown, URLs, paths, SQL, base64, hex dumps
    "scripts",         # many writing systems, word-like runs with native punctuation
    "unicode_edge",    # combining marks, NFC vs NFD, bidi marks, ZWJ/ZWNJ, controls, odd code points
    "emoji",           # singles, ZWJ sequences, skin tones, flags, keycaps, variation selectors
    "digits",          # long digit runs, separators, decimals, phone numbers, non-ASCII digits
    "whitespace",      # runs of ASCII and Unicode spaces and line breaks at start, middle, end
    "contractions",    # 's 't 're 've 'm 'll 'd in all cases, curly and other apostrophes
    "special_tokens",  # text that is, or looks like, special tokens
]

# ---------------------------------------------------------------------------------------------
# Sources from the standard library


def stdlib_dir():
    return sysconfig.get_paths()["stdlib"]


def stdlib_py_files():
    """Sorted .py files of the stdlib, without site-packages and the test suite."""
    root = stdlib_dir()
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        parts = [] if rel == "." else rel.split(os.sep)
        if parts and parts[0] in ("site-packages", "dist-packages", "test", "idlelib", "__pycache__"):
            dirnames[:] = []
            continue
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".py"):
                out.append(os.path.join(dirpath, name))
    return out


def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def docstrings(files):
    """Docstrings of modules, classes and functions, found by parsing (nothing gets imported)."""
    found = []
    for path in files:
        src = read_text(path)
        if src is None:
            continue
        try:
            tree = ast.parse(src)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=True)
                if doc and len(doc) >= 80:
                    found.append(doc)
    return found


def prose_sources(files):
    paragraphs = []
    for doc in docstrings(files):
        paragraphs.extend(p for p in doc.split("\n\n") if len(p.strip()) > 40)
    try:
        from pydoc_data import topics  # a plain dict of help texts; importing it has no side effects
        for key in sorted(topics.topics):
            paragraphs.extend(p for p in topics.topics[key].split("\n\n") if len(p.strip()) > 40)
    except ImportError:
        pass
    lic = read_text(os.path.join(stdlib_dir(), "LICENSE.txt"))
    if lic:
        paragraphs.extend(p for p in lic.split("\n\n") if p.strip())
    return paragraphs


# ---------------------------------------------------------------------------------------------
# Writing systems

# (name, code point ranges to draw letters from, punctuation, word separator, word length range)
SCRIPTS = [
    ("latin-diacritics", [(0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F), (0x1E00, 0x1EFF)], ".,;:!?", " ", (1, 12)),
    ("greek", [(0x370, 0x3FF), (0x1F00, 0x1FFF)], ".,·;!", " ", (1, 11)),
    ("cyrillic", [(0x400, 0x4FF)], ".,;:!?«»—", " ", (1, 13)),
    ("armenian", [(0x531, 0x587)], "։՝՞՛,", " ", (1, 10)),
    ("hebrew", [(0x5D0, 0x5EA), (0x5B0, 0x5C2)], ".,:־׃", " ", (1, 8)),
    ("arabic", [(0x620, 0x64A), (0x64B, 0x652), (0x671, 0x6D3)], "،؛؟.", " ", (1, 9)),
    ("devanagari", [(0x900, 0x97F)], "।॥,", " ", (1, 9)),
    ("bengali", [(0x980, 0x9FF)], "।,?", " ", (1, 9)),
    ("tamil", [(0xB80, 0xBFF)], ".,", " ", (1, 10)),
    ("sinhala", [(0xD80, 0xDFF)], ".,෴", " ", (1, 8)),
    ("thai", [(0xE01, 0xE5B)], " ", "", (2, 14)),
    ("lao", [(0xE81, 0xEDF)], " ", "", (2, 10)),
    ("tibetan", [(0xF00, 0xFDA)], "།", "་", (1, 5)),
    ("georgian", [(0x10A0, 0x10FF)], ".,!?", " ", (1, 12)),
    ("ethiopic", [(0x1200, 0x137C)], "።፣፤፥", "፡", (1, 7)),
    ("cherokee", [(0x13A0, 0x13F5)], ".,", " ", (1, 8)),
    ("khmer", [(0x1780, 0x17DD)], "។៕", "", (2, 10)),
    ("mongolian", [(0x1820, 0x1878)], "᠂᠃", " ", (1, 8)),
    ("hangul", [(0xAC00, 0xD7A3)], ".,!?", " ", (1, 5)),
    ("hangul-jamo", [(0x1100, 0x11FF)], ".", " ", (2, 9)),
    ("hiragana", [(0x3041, 0x3096)], "。、「」", "", (1, 8)),
    ("katakana", [(0x30A1, 0x30FA), (0x30FC, 0x30FC)], "。、・ー", "", (1, 8)),
    ("cjk", [(0x4E00, 0x9FFF)], "。，、；：？！「」『』（）", "", (1, 6)),
    ("cjk-ext-b", [(0x20000, 0x2A6DF)], "。，", "", (1, 4)),
    ("fullwidth", [(0xFF21, 0xFF3A), (0xFF41, 0xFF5A), (0xFF10, 0xFF19)], "！？，．", "　", (1, 8)),
    ("math-alnum", [(0x1D400, 0x1D7FF)], "∑∫√≈≠≤≥", " ", (1, 8)),
    ("runic-gothic", [(0x16A0, 0x16EA), (0x10330, 0x1034A)], "᛫᛬", " ", (1, 8)),
]


def assigned(cp):
    """True for an assigned code point that is not a surrogate, control or format character."""
    return unicodedata.category(chr(cp)) not in ("Cn", "Cs", "Co", "Cc")


def script_alphabets():
    alphabets = {}
    for name, ranges, punct, sep, wlen in SCRIPTS:
        letters, marks = [], []
        for lo, hi in ranges:
            for cp in range(lo, hi + 1):
                if not assigned(cp):
                    continue
                cat = unicodedata.category(chr(cp))
                if cat[0] == "L" or cat[0] == "N" and name in ("fullwidth", "math-alnum"):
                    letters.append(chr(cp))
                elif cat[0] == "M":
                    marks.append(chr(cp))
        if not letters:  # a very old Unicode table; should not happen on Python 3.8+
            continue
        alphabets[name] = (letters, marks, punct, sep, wlen)
    return alphabets


def make_word(rng, letters, marks, wlen):
    out = []
    for _ in range(rng.randint(*wlen)):
        out.append(rng.choice(letters))
        if marks and rng.random() < 0.35:
            out.append(rng.choice(marks))
    return "".join(out)


def make_script_text(rng, alphabets, names, nwords):
    words = []
    for i in range(nwords):
        name = rng.choice(names)
        letters, marks, punct, sep, wlen = alphabets[name]
        w = make_word(rng, letters, marks, wlen)
        if rng.random() < 0.15:
            w += rng.choice(punct)
        words.append(w)
        words.append(sep if rng.random() < 0.9 else rng.choice([" ", "\n", ", ", " - ", ""]))
    return "".join(words).strip(" ") if rng.random() < 0.8 else "".join(words)


# ---------------------------------------------------------------------------------------------
# Generators, one per kind. Each returns one record's text.

UNICODE_SPACES = ["\u00a0", "\u1680"] + [chr(c) for c in range(0x2000, 0x200B)] + [
    "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u0085", "\ufeff", "\u200b"]
ASCII_SPACES = [" ", "\t", "\r", "\n", "\r\n", "\v", "\f"]


def gen_prose(rng, src):
    n = rng.choice([1, 1, 1, 2, 3, 5])
    start = rng.randrange(len(src["prose"]))
    paras = src["prose"][start:start + n]
    text = "\n\n".join(paras)
    r = rng.random()
    if r < 0.2:  # one sentence
        sentences = [s for s in text.replace("\n", " ").split(". ") if s]
        text = rng.choice(sentences) + "."
    elif r < 0.3:  # reflowed to one line, as text pasted from a browser would be
        text = " ".join(text.split())
    return text


def gen_code(rng, src):
    lines = rng.choice(src["code"])
    n = rng.choice([3, 8, 15, 30, 60, 120])
    start = rng.randrange(max(1, len(lines) - n))
    chunk = "".join(lines[start:start + n])
    r = rng.random()
    if r < 0.1:
        chunk = chunk.replace("    ", "\t")      # tab-indented
    elif r < 0.2:
        chunk = chunk.replace("\n", "\r\n")      # Windows line ends
    elif r < 0.25:
        chunk = chunk.rstrip("\n")
    return chunk


def gen_markup(rng, src):
    words = rng.choice(src["prose"]).split()[:12] or ["x"]
    w = rng.choice(words).strip(".,:;()'\"`")
    forms = [
        lambda: json.dumps({"id": rng.randint(0, 10**9), "name": " ".join(words[:4]), "tags": words[4:8],
                            "score": round(rng.uniform(-1e3, 1e3), 4), "ok": rng.random() < 0.5, "nil": None},
                           indent=rng.choice([None, 2, 4]), ensure_ascii=rng.random() < 0.5),
        lambda: f'<div class="{w}" id="x{rng.randint(0, 999)}">\n  <p>{" ".join(words)}</p>\n  '
                f'<a href="https://example.org/{w}?q={rng.randint(0, 99999)}&amp;lang=en#top">{w}</a>\n</div>',
        lambda: f"# {w.title()}\n\n- **{words[0]}**: `{w}()`\n- _{' '.join(words[1:4])}_\n\n```python\n"
                f"print({w!r})\n```\n\n| a | b |\n|---|---|\n| {rng.randint(0, 99)} | {w} |\n",
        lambda: f"https://www.example.com/{'/'.join(words[:4])}?utm_source={w}&id={rng.randint(0, 10**12)}",
        lambda: f"/usr/lib/python3/{w}/__init__.py:{rng.randint(1, 5000)}: C:\\Users\\{w}\\AppData\\Local\\Temp\\{w}.tmp",
        lambda: f"SELECT {w}, COUNT(*) AS n FROM t_{w} WHERE x >= {rng.randint(0, 99)} AND y LIKE '%{w}%' "
                f"GROUP BY {w} ORDER BY n DESC LIMIT {rng.randint(1, 100)};",
        lambda: "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
                        for _ in range(rng.choice([16, 64, 300, 2000]))) + "==",
        lambda: "\n".join(f"{a:08x}: " + " ".join(f"{rng.randrange(256):02x}" for _ in range(16))
                          for a in range(0, 16 * rng.randint(1, 20), 16)),
        lambda: f"{w}@example.com, <{words[-1].lower()}+tag@mail.example.co.uk>; @{w}_{rng.randint(0, 99)} #{w}",
        lambda: f"$ {w} --flag={rng.randint(0, 9)} -v 2>&1 | grep -E '^[a-z]+$' > /dev/null && echo $?",
        lambda: "\\begin{equation}\n  E = mc^2 + \\sum_{i=0}^{n} \\frac{x_i}{" + w + "}\n\\end{equation}",
    ]
    return rng.choice(forms)()


def gen_scripts(rng, src):
    alphabets = src["alphabets"]
    names = sorted(alphabets)
    r = rng.random()
    if r < 0.55:  # one script
        pick = [rng.choice(names)]
    elif r < 0.9:  # a few, mixed word by word
        pick = rng.sample(names, rng.randint(2, 4))
    else:  # with English words between
        pick = rng.sample(names, 2)
    text = make_script_text(rng, alphabets, pick, rng.choice([1, 3, 10, 40, 120]))
    if r >= 0.9:
        eng = rng.choice(src["prose"]).split()
        text = " ".join(rng.choice(eng) if rng.random() < 0.5 else t for t in text.split(" "))
    return text


COMBINING = [chr(c) for c in range(0x300, 0x370)] + [chr(c) for c in range(0x1AB0, 0x1ABF)] + \
            [chr(c) for c in range(0x20D0, 0x20F1)]
BIDI = ["\u200e", "\u200f", "\u061c", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",
        "\u2066", "\u2067", "\u2068", "\u2069"]
ODD_POINTS = ["\u0000", "\u0001", "\u0007", "\u0008", "\u001b", "\u001f", "\u007f", "\u0080", "\u009f",
              "\u00ad", "\u034f", "\u180e", "\u2060", "\u2061", "\ufff9", "\ufffc", "\ufffd", "\ufffe", "\uffff",
              "\ufdd0", "\ue000", "\uf8ff", "\U000f0000", "\U0010fffd", "\U0010ffff", "\U0001fffe",
              "\U000e0001", "\U000e0020", "\U000e007f", "\U0001d11e", "\U00010000"]
COMPAT = "ﬁﬂﬀﬃ²³¹¼½¾℃℉™℠Å№Ⅻⅷ①②⑳㎏㎞㍿ｶﾞｷﾞﾊﾟ︵︶﹏ǅǈǋẞß"


def gen_unicode_edge(rng, src):
    alphabets = src["alphabets"]
    base = make_script_text(rng, alphabets, [rng.choice(["latin-diacritics", "greek", "cyrillic", "hangul",
                                                         "devanagari", "arabic", "hebrew", "latin-diacritics"])],
                            rng.choice([2, 6, 20]))
    r = rng.random()
    if r < 0.2:
        return unicodedata.normalize("NFD", base)
    if r < 0.3:
        return unicodedata.normalize(rng.choice(["NFC", "NFKC", "NFKD"]), base)
    if r < 0.4:  # the same text in NFC and NFD, side by side
        return unicodedata.normalize("NFC", base) + " | " + unicodedata.normalize("NFD", base)
    if r < 0.55:  # stacked combining marks ("zalgo"), also on digits, spaces and punctuation
        return "".join(ch + "".join(rng.choice(COMBINING) for _ in range(rng.choice([0, 1, 2, 5, 12])))
                       for ch in base + " 123 !?")
    if r < 0.7:  # right-to-left with left-to-right, bidi controls between
        ltr = make_script_text(rng, alphabets, ["latin-diacritics"], 4)
        rtl = make_script_text(rng, alphabets, [rng.choice(["arabic", "hebrew"])], 4)
        return rng.choice(BIDI) + rtl + rng.choice(BIDI) + " " + ltr + " " + rng.choice(BIDI) + "123" + \
            rng.choice(BIDI) + rtl + rng.choice(BIDI)
    if r < 0.8:  # zero-width joiners and non-joiners inside words
        return "".join(ch + (rng.choice(["\u200d", "\u200c", "\u2060", "\u00ad"]) if rng.random() < 0.3 else "")
                       for ch in base)
    if r < 0.9:  # controls, noncharacters, private use, tags, astral edges
        return "".join(rng.choice(ODD_POINTS) if rng.random() < 0.25 else ch for ch in base)
    return "".join(rng.choice(COMPAT) if rng.random() < 0.3 else ch for ch in base)


def emoji_pool():
    singles = []
    for lo, hi in [(0x1F300, 0x1F5FF), (0x1F600, 0x1F64F), (0x1F680, 0x1F6FF), (0x1F900, 0x1F9FF),
                   (0x1FA70, 0x1FAFF), (0x2600, 0x26FF), (0x2700, 0x27BF)]:
        singles.extend(chr(c) for c in range(lo, hi + 1) if unicodedata.category(chr(c)) == "So")
    return singles


PEOPLE = ["\U0001F468", "\U0001F469", "\U0001F9D1", "\U0001F466", "\U0001F467", "\U0001F476"]
ZWJ_TAILS = ["\U0001F4BB", "\U0001F680", "\U0001F52C", "\U0001F3A8", "\U0001F692", "\u2695\ufe0f", "\u2708\ufe0f",
             "\U0001F373", "\U0001F393", "\U0001F9B0", "\U0001F9B3", "\U0001F37C"]
SKIN = [chr(c) for c in range(0x1F3FB, 0x1F400)]
FLAGS = ["US", "GB", "FR", "DE", "JP", "CN", "IN", "BR", "ZA", "KR", "UA", "IL", "EG", "MX", "NG", "SE", "EU", "UN"]
TAG_FLAGS = ["gbeng", "gbsct", "gbwls", "usca", "ustx"]


def gen_emoji(rng, src):
    singles = src["emoji"]

    def one():
        r = rng.random()
        if r < 0.35:
            return rng.choice(singles)
        if r < 0.45:
            return rng.choice(PEOPLE) + rng.choice(SKIN)
        if r < 0.6:  # ZWJ sequences: families, professions, with and without skin tones
            if rng.random() < 0.5:
                return "\u200d".join(rng.choice(PEOPLE) for _ in range(rng.randint(2, 4)))
            p = rng.choice(PEOPLE) + (rng.choice(SKIN) if rng.random() < 0.5 else "")
            return p + "\u200d" + rng.choice(ZWJ_TAILS)
        if r < 0.7:  # regional-indicator flags, real and nonsense, and odd counts of indicators
            code = rng.choice(FLAGS) if rng.random() < 0.7 else "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
                                                                      for _ in range(rng.choice([1, 2, 3])))
            return "".join(chr(0x1F1E6 + ord(c) - 65) for c in code)
        if r < 0.75:  # subdivision flags made of tag characters
            return "\U0001F3F4" + "".join(chr(0xE0000 + ord(c)) for c in rng.choice(TAG_FLAGS)) + "\U000E007F"
        if r < 0.85:  # keycaps, with and without the variation selector
            return rng.choice("0123456789#*") + rng.choice(["\ufe0f\u20e3", "\u20e3"])
        if r < 0.95:  # text vs emoji presentation selectors
            return rng.choice("\u263a\u2764\u2122\u00a9\u2603\u2600\u2708\u270f\u2b50") + rng.choice(["\ufe0e", "\ufe0f"])
        return "\U0001F3F3\ufe0f\u200d\U0001F308"  # rainbow flag

    parts = []
    words = rng.choice(src["prose"]).split()
    for _ in range(rng.choice([1, 2, 5, 15, 40])):
        r = rng.random()
        if r < 0.5:
            parts.append(one())
        elif r < 0.7:
            parts.append(one() * rng.randint(2, 6))  # repeats, no spaces
        else:
            parts.append(rng.choice(words) if words else "ok")
        parts.append(rng.choice([" ", "", "", "\n", "!", ". "]))
    return "".join(parts)


DIGIT_SETS = ["0123456789", "٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹", "०१२३४५६७८९", "০১২৩৪৫৬৭৮৯", "０１２３４５６７８９",
              "๐๑๒๓๔๕๖๗๘๙", "⁰¹²³⁴⁵⁶⁷⁸⁹", "₀₁₂₃₄₅₆₇₈₉", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗"]


def digits(rng, n, alphabet="0123456789"):
    return "".join(rng.choice(alphabet) for _ in range(n))


def grouped(rng, n, sep):
    s = str(n)
    out = []
    while s:
        out.append(s[-3:])
        s = s[:-3]
    return sep.join(reversed(out))


def gen_digits(rng, src):
    def one():
        r = rng.random()
        if r < 0.2:
            return digits(rng, rng.choice([1, 2, 3, 4, 5, 7, 10, 16, 33, 64, 100, 150, 200]))
        if r < 0.3:
            return grouped(rng, rng.randrange(10 ** rng.randint(1, 15)), rng.choice([",", ".", " ", "\u00a0", "\u202f", "'", "_"]))
        if r < 0.4:
            return f"{rng.choice(['', '-', '+'])}{rng.randrange(10 ** rng.randint(1, 8))}.{digits(rng, rng.randint(1, 12))}"
        if r < 0.45:
            return f"{rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30):.{rng.randint(0, 12)}e}"
        if r < 0.55:  # phone-like
            return rng.choice([
                f"+1 ({digits(rng, 3)}) {digits(rng, 3)}-{digits(rng, 4)}",
                f"+44 {digits(rng, 2)} {digits(rng, 4)} {digits(rng, 4)}",
                f"{digits(rng, 3)}.{digits(rng, 3)}.{digits(rng, 4)}",
                f"+81-{digits(rng, 2)}-{digits(rng, 4)}-{digits(rng, 4)}",
                f"00{digits(rng, 12)}"])
        if r < 0.65:  # dates, times, versions, addresses
            return rng.choice([
                f"{rng.randint(1900, 2100)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{digits(rng, 6)}Z",
                f"{rng.randint(1, 31)}/{rng.randint(1, 12)}/{rng.randint(0, 99):02d}",
                f"v{rng.randint(0, 20)}.{rng.randint(0, 99)}.{rng.randint(0, 999)}",
                f"{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}:{rng.randint(1, 65535)}",
                f"0x{rng.randrange(16 ** 8):08X}", f"{rng.randint(1, 99)}%", f"${grouped(rng, rng.randrange(10**9), ',')}.{digits(rng, 2)}",
                f"{rng.randint(1, 9)}{digits(rng, 3)} {rng.choice(['km', 'kg', 'ms', 'MB', 'px'])}"])
        if r < 0.8:  # digits glued to letters and punctuation
            return rng.choice(["abc", "x", "Q", "é", "Ω", "ж", "文"]) + digits(rng, rng.randint(1, 9)) + \
                rng.choice(["", "th", "px", "-", "_", ".", "abc"]) + digits(rng, rng.randint(0, 6))
        if r < 0.9:  # other digit sets, and mixtures of them
            if rng.random() < 0.7:
                return digits(rng, rng.randint(1, 40), rng.choice(DIGIT_SETS))
            return "".join(digits(rng, rng.randint(1, 4), rng.choice(DIGIT_SETS)) for _ in range(rng.randint(2, 6)))
        # fractions, roman numerals and other non-decimal numbers
        return "".join(rng.choice("½⅓¼⅕⅞ⅠⅡⅢⅣⅫⅰⅱ①⑩⑳㉑〇〡〢") for _ in range(rng.randint(1, 6)))

    parts = []
    for _ in range(rng.choice([1, 1, 3, 10, 30])):
        parts.append(one())
        parts.append(rng.choice([" ", " ", ", ", "\n", "", "; ", " = ", "\t"]))
    return "".join(parts).rstrip(" ") if rng.random() < 0.7 else "".join(parts)


def ws_run(rng, maxlen=40):
    r = rng.random()
    n = rng.randint(1, maxlen)
    if r < 0.3:
        return rng.choice([" ", "\t", "\n", "\r\n", "\r"]) * n
    if r < 0.6:
        return "".join(rng.choice(ASCII_SPACES) for _ in range(n))
    if r < 0.8:
        return "".join(rng.choice(UNICODE_SPACES) for _ in range(n))
    return "".join(rng.choice(ASCII_SPACES + UNICODE_SPACES) for _ in range(n))


def gen_whitespace(rng, src):
    words = rng.choice(src["prose"]).split() or ["word"]
    parts = []
    if rng.random() < 0.6:
        parts.append(ws_run(rng))
    for _ in range(rng.choice([0, 1, 3, 8, 20])):
        parts.append(rng.choice(words) if rng.random() < 0.8 else rng.choice(["123", "!", "é", "日本", "x"]))
        parts.append(ws_run(rng) if rng.random() < 0.6 else " ")
    if rng.random() < 0.6:
        parts.append(ws_run(rng))
    text = "".join(parts)
    return text or ws_run(rng)


APOSTROPHES = ["'", "'", "'", "\u2019", "\u2018", "\u02bc", "`", "\u00b4", "\uff07"]
SUFFIXES = ["s", "t", "re", "ve", "m", "ll", "d"]
STEMS = ["it", "don", "can", "we", "they", "I", "you", "she", "he", "that", "there", "who", "John", "Москва",
         "Zoë", "東京", "O", "rock", "y'all", "shouldn", "wouldn", "ma", "o", "Hawai", "l", "d", "1990", "x"]


def case_mix(rng, s):
    r = rng.random()
    if r < 0.5:
        return s
    if r < 0.7:
        return s.upper()
    if r < 0.85:
        return s.capitalize()
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in s)


def gen_contractions(rng, src):
    def one():
        r = rng.random()
        a = rng.choice(APOSTROPHES)
        if r < 0.6:
            return case_mix(rng, rng.choice(STEMS) + a + rng.choice(SUFFIXES))
        if r < 0.7:
            return a + case_mix(rng, rng.choice(SUFFIXES))  # bare suffix: "'s", "'LL"
        if r < 0.8:  # stacked: "y'all'd've", "I'd've'n't"
            return rng.choice(STEMS) + "".join(a + case_mix(rng, rng.choice(SUFFIXES)) for _ in range(rng.randint(2, 4)))
        if r < 0.9:  # quotes around words, apostrophes at the edges and doubled
            w = rng.choice(STEMS)
            return rng.choice([f"'{w}'", f"\u2018{w}\u2019", f"\"{w}'s\"", f"''{w}''", f"{w}'", f"'{w}", f"{w}''s",
                               f"'90s", f"rock 'n' roll", f"'tis", f"{w} 's", f"{w}' s", f"{w}'S'T"])
        return case_mix(rng, rng.choice(STEMS)) + a + case_mix(rng, rng.choice(["re", "ve", "ll"])) + \
            rng.choice(["", "s", "e", "ly", "al"])  # near misses: 'res, 'vel, 'lly

    words = rng.choice(src["prose"]).split()
    parts = []
    for _ in range(rng.choice([1, 3, 8, 20, 40])):
        parts.append(one() if rng.random() < 0.6 or not words else rng.choice(words))
        parts.append(rng.choice([" ", " ", " ", "", "\n", ", ", ". "]))
    return "".join(parts).strip() if rng.random() < 0.8 else "".join(parts)


SPECIALS = ["<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>",
            "<|im_start|>", "<|im_end|>", "<|endoftext|>", "<|reserved_special_token_9|>",
            "<|reserved_special_token_250|>", "<|finetune_right_pad_id|>", "<|python_tag|>", "<|eom_id|>",
            "<repo_name>", "<reponame>", "<file_sep>", "<filename>", "<gh_stars>", "<issue_start>",
            "<issue_comment>", "<issue_closed>", "<jupyter_start>", "<jupyter_text>", "<jupyter_code>",
            "<jupyter_output>", "<jupyter_script>", "<empty_output>", "<s>", "</s>", "<unk>", "<pad>", "[INST]",
            "[/INST]", "<start_of_turn>", "<end_of_turn>", "<think>", "</think>"]
NEAR_MISSES = ["<|eot_id", "<|im_start", "<|im_end", "im_start|>", "<|im_start|", "|im_end|>", "<|endoftext",
               "endoftext|>", "<|IM_START|>", "<|Im_End|>", "< |im_start|>", "<| im_end |>", "<|im_start |>",
               "<||im_end||>", "<<|im_end|>>", "<|im_start|<|im_end|>|>", "<|<|endoftext|>|>", "<|>", "<||>",
               "<|", "|>", "<", ">", "<repo_name", "repo_name>", "<jupyter_code >", "<file-sep>", "<|im_sta rt|>",
               "＜|im_start|＞", "<\u200b|im_end|>", "<|im_end|\u200b>"]


def gen_special_tokens(rng, src):
    words = rng.choice(src["prose"]).split() or ["text"]
    r = rng.random()
    if r < 0.25:  # chat-formatted text, as a prompt would look
        roles = ["system", "user", "assistant", "user", "assistant"][:rng.randint(1, 5)]
        fmt = rng.random()
        out = []
        for role in roles:
            body = " ".join(rng.choice(words) for _ in range(rng.randint(0, 20)))
            if fmt < 0.5:
                out.append(f"<|im_start|>{role}\n{body}<|im_end|>\n")
            else:
                out.append(f"<|start_header_id|>{role}<|end_header_id|>\n\n{body}<|eot_id|>")
        head = "" if fmt < 0.5 else "<|begin_of_text|>"
        tail = "<|im_start|>assistant\n" if fmt < 0.5 and rng.random() < 0.5 else ""
        return head + "".join(out) + tail
    parts = []
    for _ in range(rng.choice([1, 2, 5, 12, 30])):
        q = rng.random()
        if q < 0.35:
            parts.append(rng.choice(SPECIALS))
        elif q < 0.55:
            parts.append(rng.choice(NEAR_MISSES))
        elif q < 0.65:  # adjacent, repeated
            parts.append(rng.choice(SPECIALS) * rng.randint(2, 5))
        elif q < 0.8:  # embedded in a word
            w = rng.choice(words)
            k = rng.randint(0, len(w))
            parts.append(w[:k] + rng.choice(SPECIALS + NEAR_MISSES) + w[k:])
        else:
            parts.append(rng.choice(words))
        parts.append(rng.choice(["", "", " ", "\n", "  ", " \n"]))
    return "".join(parts)


GENERATORS = {
    "prose": gen_prose, "code": gen_code, "markup": gen_markup, "scripts": gen_scripts,
    "unicode_edge": gen_unicode_edge, "emoji": gen_emoji, "digits": gen_digits, "whitespace": gen_whitespace,
    "contractions": gen_contractions, "special_tokens": gen_special_tokens,
}


def long_records(rng, src):
    """A few long inputs with no break for the pre-tokenizer to cut at: the BPE of one huge word."""
    alph = src["alphabets"]
    return [
        ("scripts", "".join(rng.choice(alph["cjk"][0]) for _ in range(3000))),
        ("scripts", "".join(rng.choice(alph["thai"][0]) for _ in range(2000))),
        ("markup", "a" * 5000),
        ("markup", "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(4000))),
        ("digits", digits(rng, 5000)),
        ("whitespace", " " * 3000),
        ("whitespace", "\n" * 1000 + "x" + "\t" * 1000),
        ("emoji", "\U0001F600" * 1500),
        ("special_tokens", "<|im_start|>" * 300),
        ("unicode_edge", "e" + "\u0301" * 2000),
    ]


def tiny_records():
    """Empty and one-character records: every edge of the encoder's loop."""
    chars = ["", "", "a", "Z", "0", "9", " ", "\t", "\n", "\r", "\u00a0", "\u3000", "'", "<", "|", ">", "é",
             "\u0301", "\u05d0", "日", "\U0001F600", "\U00020000", "\ufeff", "\u200d", "\u0000", "\U0010ffff", ".",
             "\\", "\"", "1 ", " 1", "\r\n"]
    return [("tiny", c) for c in chars]


def load_sources(rng):
    files = stdlib_py_files()
    if not files:
        sys.exit("build_corpus: found no .py files in the stdlib at %s" % stdlib_dir())
    prose = prose_sources(files)
    code_files = []
    for path in rng.sample(files, min(400, len(files))):
        src = read_text(path)
        if src and len(src) > 200:
            code_files.append(src.splitlines(keepends=True))
    return {"prose": prose, "code": code_files, "alphabets": script_alphabets(), "emoji": emoji_pool()}


def check(text):
    if not isinstance(text, str):
        raise TypeError("record text is not a str")
    text.encode("utf-8")  # raises on a lone surrogate


def serialize(rec):
    line = json.dumps(rec, ensure_ascii=False)
    return line.replace("\u0085", "\\u0085").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="output .jsonl path")
    ap.add_argument("--size-mb", type=float, default=1.2, help="total UTF-8 bytes of text, in 10**6 (default 1.2)")
    ap.add_argument("--seed", type=int, default=20240611, help="random seed (default: fixed)")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    src = load_sources(rng)
    records = tiny_records() + long_records(rng, src)
    total = int(args.size_mb * 1_000_000)
    quota = total // len(KINDS)
    have = {k: 0 for k in KINDS}
    for kind, text in records:
        if kind in have:
            have[kind] += len(text.encode("utf-8"))
    # Round-robin over the kinds so that each grows in the same steps, until each has its share.
    while any(have[k] < quota for k in KINDS):
        for kind in KINDS:
            if have[kind] >= quota:
                continue
            text = GENERATORS[kind](rng, src)
            records.append((kind, text))
            have[kind] += len(text.encode("utf-8"))
    rng.shuffle(records)

    counts, sizes = {}, {}
    nbytes = 0
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        for kind, text in records:
            check(text)
            line = serialize({"kind": kind, "text": text})
            assert "\n" not in line and "\r" not in line
            f.write(line + "\n")
            b = len(text.encode("utf-8"))
            counts[kind] = counts.get(kind, 0) + 1
            sizes[kind] = sizes.get(kind, 0) + b
            nbytes += b
    file_bytes = os.path.getsize(args.out)
    err = sys.stderr
    print(f"build_corpus: wrote {args.out}: {len(records)} records, {nbytes} bytes of text "
          f"({file_bytes} bytes of JSONL), seed {args.seed}, Python {sys.version.split()[0]}, "
          f"Unicode {unicodedata.unidata_version}", file=err)
    print(f"  {'kind':<16}{'records':>8}{'text bytes':>12}", file=err)
    for kind in KINDS + ["tiny"]:
        print(f"  {kind:<16}{counts.get(kind, 0):>8}{sizes.get(kind, 0):>12}", file=err)


if __name__ == "__main__":
    main()
