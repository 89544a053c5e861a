#!/usr/bin/env python3
"""header_names.py - what a header declares, read from the preprocessor's
output of a file that includes it, for header-compat.sh to compare
include/ with the CUDA toolkit's headers.

    header_names.py names FILES  < preprocessed.i
        prints "KIND NAME" for every typedef, struct or union tag, enum tag
        and enumerator declared in the lines that came from FILES (a
        comma-separated list of base names), sorted.
    header_names.py layout FILES HEADER < preprocessed.i
        prints a C11 program that includes HEADER and prints, one line
        each, the size and alignment of every structure and union defined
        in FILES and the offset and size of each of its members (those of
        anonymous members too), so that two builds of it can be compared
        line by line.
    header_names.py macros FILES HEADER < preprocessed-with-dD.i
        likewise a program that prints every object-like macro FILES
        define: its value where it is an expression, what it expands to
        where it is one name (a type or constant by another name), and that
        it is missing where it is not defined. Left out: names with a
        leading underscore, the entry points' renames (cu* names, which
        name functions that need not exist), empty macros and strings.

Not a C parser: a tokenizer that knows how declarations are shaped, which
is all these headers use (no K&R, no macros left after preprocessing).
Function declarations are not names here: only types are compared.
"""
import re
import sys

IDENT = re.compile(r'[A-Za-z_]\w*$')
# Words between '(*' and a function pointer's name.
CALLCONV = {'CUDAAPI', 'CUDA_CB', 'CUDART_CB', '__stdcall', 'const'}


def tokens_from(text, files):
    """The tokens of the lines the preprocessor says came from FILES."""
    kept, current = [], None
    for line in text.splitlines():
        mark = re.match(r'#\s*(?:line\s+)?\d+\s+"([^"]*)"', line)
        if mark:
            current = mark.group(1).rsplit('/', 1)[-1]
        elif current in files and not line.startswith('#'):
            kept.append(line)
    src = '\n'.join(kept)
    src = re.sub(r'__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)', ' ', src)
    return re.findall(r'[A-Za-z_]\w*|\d[\w.]*|->|::|\S', src)


def matching(toks, i):
    """The index of the bracket closing the one at i."""
    depth = 0
    for k in range(i, len(toks)):
        if toks[k] in '([{':
            depth += 1
        elif toks[k] in ')]}':
            depth -= 1
            if depth == 0:
                return k
    return len(toks) - 1


def enum_names(toks, out):
    for i, t in enumerate(toks):
        if t != 'enum':
            continue
        j = i + 1
        if j < len(toks) and IDENT.match(toks[j]) and toks[j] != 'class':
            out.add(('enum', toks[j]))
            j += 1
        if j >= len(toks) or toks[j] != '{':
            continue
        end, k, expect = matching(toks, j), j + 1, True
        while k < end:
            if toks[k] in '([{':
                k = matching(toks, k) + 1
                continue
            if toks[k] == ',':
                expect = True
            elif expect and IDENT.match(toks[k]):
                out.add(('enumerator', toks[k]))
                expect = False
            k += 1


def declarator_name(decl):
    """The name a declaration's tokens (one declarator) declare."""
    for k in range(len(decl) - 1):
        if decl[k] == '(' and decl[k + 1] in ('*', '^'):
            m = k + 2
            while m < len(decl) and decl[m] in CALLCONV:
                m += 1
            if m < len(decl) and IDENT.match(decl[m]):
                return decl[m]
    name, k = None, 0
    while k < len(decl):
        if decl[k] in '([{':
            k = matching(decl, k) + 1
            continue
        if IDENT.match(decl[k]):
            name = decl[k]
        k += 1
    return name


def split_top(toks, seps):
    """toks cut at SEPS outside brackets; the pieces."""
    pieces, cur, k = [], [], 0
    while k < len(toks):
        if toks[k] in '([{':
            e = matching(toks, k)
            cur.extend(toks[k:e + 1])
            k = e + 1
            continue
        if toks[k] in seps:
            pieces.append(cur)
            cur = []
        else:
            cur.append(toks[k])
        k += 1
    if cur:
        pieces.append(cur)
    return pieces


def flatten(toks):
    """toks without the braces of extern "C" and namespace blocks, so that
    what they hold reads as file scope."""
    drop, k = set(), 0
    while k < len(toks):
        if toks[k] == '{' and k > 0 and (toks[k - 1] == '"' or
                                         (k > 1 and toks[k - 2] == 'namespace')):
            drop.update((k, matching(toks, k)))
        k += 1
    return [t for n, t in enumerate(toks) if n not in drop]


def typedef_names(toks, out):
    k = 0
    while k < len(toks):
        if toks[k] in '([{':
            k = matching(toks, k) + 1
            continue
        if toks[k] != 'typedef':
            k += 1
            continue
        end = k + 1
        while end < len(toks) and toks[end] != ';':
            end = matching(toks, end) + 1 if toks[end] in '([{' else end + 1
        body = toks[k + 1:end]
        k = end + 1
        # The declarators follow the brace block of a tag definition.
        start = 0
        for b in range(len(body)):
            if body[b] == '{':
                start = matching(body, b) + 1
                break
        head = body[:start]
        for n, decl in enumerate(split_top(body[start:], ',')):
            name = declarator_name(head + decl if n == 0 and not head else decl)
            if name:
                out.add(('typedef', name))


def names(toks):
    out = set()
    enum_names(toks, out)
    for i, t in enumerate(toks[:-1]):
        if t not in ('struct', 'union', 'class'):
            continue
        j = i + 1
        if toks[j] == 'alignas' and j + 1 < len(toks) and toks[j + 1] == '(':
            j = matching(toks, j + 1) + 1
        if j < len(toks) and IDENT.match(toks[j]):
            out.add(('struct', toks[j]))
    typedef_names(toks, out)
    return out


def members(toks):
    """Member names of a brace block's inside, anonymous members' too."""
    out = []
    for decl in split_top(toks, ';'):
        brace = decl.index('{') if '{' in decl else -1
        if brace >= 0 and decl[0] in ('struct', 'union'):
            end = matching(decl, brace)
            rest = decl[end + 1:]
            if not rest:            # anonymous: its members are ours
                out.extend(members(decl[brace + 1:end]))
                continue
            decl = decl[:1] + rest
        for n, piece in enumerate(split_top(decl, ',')):
            name = declarator_name(piece)
            if name and name not in ('struct', 'union'):
                out.append(name)
    return out


def records(toks):
    """(C type, members) of each structure and union defined."""
    found = []
    for i, t in enumerate(toks):
        if t not in ('struct', 'union') or i + 1 >= len(toks):
            continue
        tag = toks[i + 1] if IDENT.match(toks[i + 1]) else None
        brace = i + 2 if tag else i + 1
        if brace >= len(toks) or toks[brace] != '{':
            continue
        end = matching(toks, brace)
        if tag:
            ctype = t + ' ' + tag
        elif i > 0 and toks[i - 1] == 'typedef':
            name = declarator_name(split_top(toks[end + 1:], ',;')[0])
            if not name:
                continue
            ctype = name
        else:
            continue            # a member's anonymous type: its owner's
        found.append((ctype, members(toks[brace + 1:end])))
    return found


def layout_program(toks, header):
    print('#include <stddef.h>\n#include <stdio.h>')
    print('#include <%s>' % header)
    print('int main(void)\n{')
    seen = set()
    for ctype, mems in records(toks):
        if ctype in seen:
            continue
        seen.add(ctype)
        print('\tprintf("sizeof(%s) = %%zu, align %%zu\\n", sizeof(%s), '
              '_Alignof(%s));' % (ctype, ctype, ctype))
        for m in mems:
            print('\tprintf("offsetof(%s, %s) = %%zu, size %%zu\\n", '
                  'offsetof(%s, %s), sizeof(((%s *)0)->%s));'
                  % (ctype, m, ctype, m, ctype, m))
    print('\treturn 0;\n}')


def object_macros(text, files):
    """(name, replacement) of each object-like #define from FILES."""
    found, current = [], None
    for line in text.splitlines():
        mark = re.match(r'#\s*(?:line\s+)?\d+\s+"([^"]*)"', line)
        if mark:
            current = mark.group(1).rsplit('/', 1)[-1]
            continue
        d = re.match(r'#define\s+([A-Za-z_]\w*)(\(?)\s*(.*)$', line)
        if d and current in files and not d.group(2):
            found.append((d.group(1), d.group(3).strip()))
    return found


def macro_program(macros, header):
    print('#include <stdio.h>\n#include <%s>' % header)
    print('#define STR_(x) #x\n#define XSTR(x) STR_(x)')
    print('int main(void)\n{')
    for name, repl in macros:
        if (name.startswith('_') or re.match(r'cu[A-Z]', name) or not repl
                or '"' in repl or '__attribute__' in repl
                or '__declspec' in repl):
            continue
        print('#ifdef %s' % name)
        if IDENT.match(repl):
            print('\tprintf("%%s -> %%s\\n", "%s", XSTR(%s));' % (name, name))
        else:
            print('\tprintf("%%s = %%lld\\n", "%s", (long long)(%s));'
                  % (name, name))
        print('#else\n\tprintf("%%s is not defined\\n", "%s");\n#endif'
              % name)
    print('\treturn 0;\n}')


def main(argv):
    if len(argv) < 3 or argv[1] not in ('names', 'layout', 'macros'):
        sys.stderr.write('usage: header_names.py names|layout|macros FILES '
                         '[HEADER] < preprocessed\n')
        return 2
    if argv[1] == 'macros':
        macro_program(object_macros(sys.stdin.read(), set(argv[2].split(','))),
                      argv[3] if len(argv) > 3 else argv[2])
        return 0
    toks = flatten(tokens_from(sys.stdin.read(), set(argv[2].split(','))))
    if argv[1] == 'names':
        for kind, name in sorted(names(toks)):
            print(kind, name)
    else:
        layout_program(toks, argv[3] if len(argv) > 3 else argv[2])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
