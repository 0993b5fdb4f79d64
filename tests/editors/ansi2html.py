#!/usr/bin/env python3
"""Turns a `tmux capture-pane -e -p` screen (text with SGR colour escapes) into
an HTML page, so headless chromium can take a PNG of a terminal program.

Usage: ansi2html.py [--title TITLE] < screen.ansi > screen.html
"""
import html
import re
import sys

BASE16 = [
    "#1e1e1e", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
    "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff",
]
DEFAULT_FG, DEFAULT_BG = "#d4d4d4", "#1e1e1e"
SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def color256(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    level = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (level, level, level)


class Style:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = self.bg = None
        self.bold = self.italic = self.underline = self.reverse = False

    def apply(self, params):
        codes = [int(p) if p.isdigit() else 0 for p in re.split(r"[;:]", params)] if params else [0]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                self.reset()
            elif c == 1:
                self.bold = True
            elif c == 3:
                self.italic = True
            elif c == 4:
                self.underline = True
            elif c == 7:
                self.reverse = True
            elif c == 22:
                self.bold = False
            elif c == 23:
                self.italic = False
            elif c == 24:
                self.underline = False
            elif c == 27:
                self.reverse = False
            elif 30 <= c <= 37:
                self.fg = BASE16[c - 30]
            elif 90 <= c <= 97:
                self.fg = BASE16[c - 90 + 8]
            elif 40 <= c <= 47:
                self.bg = BASE16[c - 40]
            elif 100 <= c <= 107:
                self.bg = BASE16[c - 100 + 8]
            elif c == 39:
                self.fg = None
            elif c == 49:
                self.bg = None
            elif c in (38, 48, 58) and i + 1 < len(codes):
                if codes[i + 1] == 5 and i + 2 < len(codes):
                    value, i = color256(codes[i + 2]), i + 2
                elif codes[i + 1] == 2 and i + 4 < len(codes):
                    value, i = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5]), i + 4
                else:
                    value = None
                if c == 38:
                    self.fg = value
                elif c == 48:
                    self.bg = value
            i += 1

    def css(self):
        fg, bg = self.fg or DEFAULT_FG, self.bg or DEFAULT_BG
        if self.reverse:
            fg, bg = bg, fg
        parts = [f"color:{fg}", f"background:{bg}"]
        if self.bold:
            parts.append("font-weight:bold")
        if self.italic:
            parts.append("font-style:italic")
        if self.underline:
            parts.append("text-decoration:underline")
        return ";".join(parts)


def convert(text):
    style = Style()
    out = []
    for line in text.rstrip("\n").split("\n"):
        pos = 0
        spans = []
        for m in SGR.finditer(line):
            if m.start() > pos:
                spans.append(f'<span style="{style.css()}">{html.escape(line[pos:m.start()])}</span>')
            style.apply(m.group(1))
            pos = m.end()
        if pos < len(line):
            spans.append(f'<span style="{style.css()}">{html.escape(line[pos:])}</span>')
        out.append("".join(spans))
    return "\n".join(out)


def main():
    title = "terminal"
    if len(sys.argv) == 3 and sys.argv[1] == "--title":
        title = sys.argv[2]
    body = convert(sys.stdin.read())
    sys.stdout.write(
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>%s</title><style>"
        "body{margin:0;background:%s}pre{margin:0;padding:8px;font:14px/1.25 'DejaVu Sans Mono',monospace;color:%s}"
        "</style></head><body><pre>%s</pre></body></html>\n" % (html.escape(title), DEFAULT_BG, DEFAULT_FG, body)
    )


if __name__ == "__main__":
    main()
