#!/usr/bin/env python3
"""Check that every relative link (and #anchor) in the given Markdown files resolves."""
import os, re, sys

def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)  # GitHub: drop punctuation except - and space (keeps _ and letters)
    return s.replace(' ', '-')

def anchors(path):
    out, seen, fence = set(), {}, False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence
        if fence:
            continue
        m = re.match(r'(#{1,6})\s+(.*)', line)
        if m:
            text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', m.group(2))
            s = slug(text)
            n = seen.get(s, 0); seen[s] = n + 1
            out.add(s if n == 0 else f'{s}-{n}')
    return out

bad = checked = 0
for md in sys.argv[1:]:
    text, fence = [], False
    for line in open(md, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence
            continue
        if not fence:
            text.append(line)
    for target in re.findall(r'\]\(([^)\s]+)\)', ''.join(text)):
        if re.match(r'[a-z]+:', target):
            continue
        checked += 1
        path, _, frag = target.partition('#')
        full = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
        if not os.path.exists(full):
            print(f'{md}: missing file {target}'); bad += 1; continue
        if frag and full.endswith('.md') and frag not in anchors(full):
            print(f'{md}: missing anchor {target}'); bad += 1
print(f'{checked} relative links checked, {bad} broken')
sys.exit(1 if bad else 0)
