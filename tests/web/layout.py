"""What a person sees of a page, measured: nothing clipped, nothing overlapping, what matters in
view and not covered, disabled controls still readable. One probe for every page of the panel,
called by the browser tests at any moment of a game.

``check_layout(page, in_view=[...])`` returns the problems found, each a short sentence naming
the element (empty: the page is fine). What is checked:

- **Clipped.** The text of every visible element lies inside the viewport's width and inside
  every ancestor that clips (``overflow`` other than ``visible``, and every inline SVG), except
  where that ancestor scrolls to it (its content below or to the right). An element whose own
  text overflows a box that hides it (an ellipsis, ``overflow: hidden``) is clipped too. The
  page never scrolls sideways.
- **Overlapping.** No two visible controls or runs of text outside drawings overlap (one
  inside the other is no overlap); a drawing (an SVG) counts as one box, and only what is seen
  of a box inside a scrolling one counts. Once the page (or a column) has scrolled, what passes
  under a box that stays put (a sticky bar) is covered, not overlapping; two such boxes must
  still keep apart (a sticky bar under a sticky header).
- **In view.** Each selector of ``in_view`` matches a visible element wholly inside the
  viewport, and the element really at its centre is itself or inside it (nothing covers it:
  no sticky header over a sticky bar).
- **Share.** ``share`` maps a selector to the largest fraction of the viewport's height it may
  take (the what-now bar: a third of an upright phone).
- **Readable when disabled.** Every visible disabled control's text has a contrast of at least
  4.5:1 against what is behind it, opacity included.
"""

from __future__ import annotations

from typing import Any

PROBE = r"""(options) => {
  const problems = [];
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const ignore = (options.ignore || []).flatMap((s) => [...document.querySelectorAll(s)]);
  const name = (el) => {
    const id = el.id ? `#${el.id}` : '';
    const cls = typeof el.className === 'string' && el.className
      ? '.' + el.className.trim().split(/\s+/).join('.') : '';
    const text = (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30);
    return `${el.tagName.toLowerCase()}${id}${cls} "${text}"`;
  };
  const styleOf = (el) => getComputedStyle(el);
  // Shown to a person: laid out, not invisible, not a 1-px text for screen readers only.
  const shown = (el) => {
    if (ignore.some((i) => i.contains(el))) return false;
    if (!el.getClientRects().length) return false;
    // What a closed <details> folds away keeps its boxes but is not drawn.
    if (el.checkVisibility && !el.checkVisibility({contentVisibilityAuto: true})) return false;
    for (let a = el; a && a.nodeType === 1; a = a.parentElement) {
      const s = styleOf(a);
      if (s.visibility === 'hidden' || s.display === 'none') return false;
      if (Number(s.opacity) === 0) return false;
      const r = a.getBoundingClientRect();
      if (r.width <= 2 && r.height <= 2) return false;
    }
    return true;
  };
  const ownText = (el) => [...el.childNodes].filter(
    (n) => n.nodeType === 3 && n.textContent.trim());
  // The boxes of an element's own text, one per line it runs over.
  const textRects = (el) => {
    const rects = [];
    for (const n of ownText(el)) {
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.width >= 0.5 && r.height >= 0.5) {
          rects.push({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
        }
      }
    }
    return rects;
  };
  const union = (rects) => (rects.length ? {
    left: Math.min(...rects.map((r) => r.left)), top: Math.min(...rects.map((r) => r.top)),
    right: Math.max(...rects.map((r) => r.right)), bottom: Math.max(...rects.map((r) => r.bottom)),
  } : null);
  const all = [...document.body.querySelectorAll('*')].filter(
    (el) => !['SCRIPT', 'STYLE', 'TEMPLATE', 'TITLE'].includes(el.tagName));

  if (document.documentElement.scrollWidth > vw + 1) {
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
  }

  // What is seen of a box: its part inside every box that clips it (a list scrolled inside
  // its own box shows only what is in it).
  const seen = (el, r) => {
    let box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const as = styleOf(a);
      if (as.overflowX === 'visible' && as.overflowY === 'visible') continue;
      const c = a.getBoundingClientRect();
      box = { left: Math.max(box.left, c.left), top: Math.max(box.top, c.top),
              right: Math.min(box.right, c.right), bottom: Math.min(box.bottom, c.bottom) };
    }
    return box.right - box.left > 0.5 && box.bottom - box.top > 0.5 ? box : null;
  };
  // --- clipped ---
  const slack = 1;
  for (const el of all) {
    const svgText = el instanceof SVGElement && el.tagName.toLowerCase() === 'text';
    if (!svgText && el instanceof SVGElement) continue;
    const rect = svgText ? el.getBoundingClientRect() : union(textRects(el));
    if (!rect || !shown(el)) continue;
    // What is seen of it (a wide table scrolls in its own box) must be inside the page.
    const visible = seen(el, rect);
    if (visible && (visible.left < -slack || visible.right > vw + slack)) {
      problems.push(`clipped by the page's edge: ${name(el)}`);
      continue;
    }
    const s = styleOf(el);
    const hides = ['hidden', 'clip'].includes(s.overflowX);
    if (!svgText && hides && el.scrollWidth > el.clientWidth + slack) {
      problems.push(`its text overflows its own box: ${name(el)}`);
      continue;
    }
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const as = styleOf(a);
      const isSvg = a.tagName.toLowerCase() === 'svg';
      if (!isSvg && as.overflowX === 'visible' && as.overflowY === 'visible') continue;
      const box = a.getBoundingClientRect();
      const left = box.left + a.clientLeft, top = box.top + a.clientTop;
      const right = isSvg ? box.right : left + a.clientWidth;
      const bottom = isSvg ? box.bottom : top + a.clientHeight;
      const scrollsX = !isSvg && ['auto', 'scroll'].includes(as.overflowX);
      const scrollsY = !isSvg && ['auto', 'scroll'].includes(as.overflowY);
      // What lies left of or above the start of a scrolling box can never be scrolled to.
      const cut = rect.left + (isSvg ? 0 : a.scrollLeft) < left - slack ||
        rect.top + (isSvg ? 0 : a.scrollTop) < top - slack ||
        (!scrollsX && rect.right > right + slack) || (!scrollsY && rect.bottom > bottom + slack);
      if (cut) {
        problems.push(`clipped by ${name(a)}: ${name(el)}`);
        break;
      }
    }
  }

  // --- overlapping ---
  const CONTROLS = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  // A box that stays put while the page scrolls (a sticky bar, a fixed header): what scrolls
  // under it is covered, not overlapping; two such boxes must still keep apart.
  const pinned = (el) => {
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      if (['sticky', 'fixed'].includes(styleOf(a).position)) return a;
    }
    return null;
  };
  // Whether what scrolls around a pinned box has been scrolled (only then can it pass under).
  const scrolled = (pin) => {
    for (let a = pin.parentElement; a && a !== document.body; a = a.parentElement) {
      if (['auto', 'scroll'].includes(styleOf(a).overflowY)) return a.scrollTop > 0;
    }
    return window.scrollY > 0;
  };
  const boxes = [];
  for (const el of all) {
    if (el instanceof SVGElement && el.tagName.toLowerCase() !== 'svg') continue;
    if (!shown(el)) continue;
    let rects = [];
    if (el.matches(CONTROLS) || el.tagName.toLowerCase() === 'svg') {
      const r = el.getBoundingClientRect();
      rects = [{ left: r.left, top: r.top, right: r.right, bottom: r.bottom }];
    } else if (!el.closest(CONTROLS)) {
      rects = textRects(el);  // text inside a control is checked as the control
    }
    rects = rects.map((r) => seen(el, r)).filter(Boolean);
    if (rects.length) boxes.push({ el, rects, pin: pinned(el) });
  }
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1.5 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1.5;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      if ((a.pin || b.pin) && !(a.pin && b.pin) && scrolled(a.pin || b.pin)) continue;
      if (a.rects.some((r) => b.rects.some((q) => meet(r, q)))) {
        problems.push(`overlapping: ${name(a.el)} and ${name(b.el)}`);
      }
    }
  }

  // --- in view and not covered ---
  for (const selector of options.inView || []) {
    const el = document.querySelector(selector);
    if (!el || !shown(el)) { problems.push(`not shown: ${selector}`); continue; }
    const r = el.getBoundingClientRect();
    if (r.top < -slack || r.left < -slack || r.bottom > vh + slack || r.right > vw + slack) {
      problems.push(`out of view: ${selector} [${Math.round(r.top)}, ${Math.round(r.bottom)}] ` +
                    `of ${vh}`);
      continue;
    }
    // Its top and bottom edges, a little inside, must be its own: nothing lies over it.
    for (const y of [r.top + 3, (r.top + r.bottom) / 2, r.bottom - 3]) {
      const hit = document.elementFromPoint((r.left + r.right) / 2, y);
      if (hit && !el.contains(hit)) {
        problems.push(`covered: ${selector} by ${name(hit)}`);
        break;
      }
    }
  }
  for (const [selector, most] of Object.entries(options.share || {})) {
    const el = document.querySelector(selector);
    if (!el || !shown(el)) continue;
    const h = el.getBoundingClientRect().height;
    if (h > most * vh + slack) {
      problems.push(`${selector} takes ${Math.round(100 * h / vh)} % of the height (at most ` +
                    `${Math.round(100 * most)} %)`);
    }
  }

  // --- disabled controls stay readable ---
  const rgba = (text) => {
    const m = /rgba?\(([^)]+)\)/.exec(text);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, below) => {
    const a = top[3];
    return [0, 1, 2].map((k) => top[k] * a + below[k] * (1 - a)).concat([1]);
  };
  const background = (el) => {
    const chain = [];
    for (let a = el; a; a = a.parentElement) chain.unshift(a);
    let bg = [255, 255, 255, 1];
    for (const a of chain) bg = over(rgba(styleOf(a).backgroundColor), bg);
    return bg;
  };
  const luminance = (c) => {
    const [r, g, b] = [0, 1, 2].map((k) => {
      const v = c[k] / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  for (const el of document.querySelectorAll('button:disabled, input:disabled, select:disabled')) {
    if (!shown(el) || el.type === 'checkbox' || el.type === 'range') continue;
    let opacity = 1;
    for (let a = el; a; a = a.parentElement) opacity *= Number(styleOf(a).opacity);
    const behind = background(el.parentElement);
    const own = over(rgba(styleOf(el).backgroundColor), behind);
    const text = over(rgba(styleOf(el).color), own);
    const seen = over([...text.slice(0, 3), opacity], behind);
    const field = over([...own.slice(0, 3), opacity], behind);
    const ratio = contrast(seen, field);
    if (ratio < 4.5) {
      problems.push(`disabled and hard to read (${ratio.toFixed(2)}:1): ${name(el)}`);
    }
  }
  return problems;
}"""


def check_layout(page: Any, in_view: list[str] | tuple[str, ...] = (),
                 share: dict[str, float] | None = None,
                 ignore: list[str] | tuple[str, ...] = ("#toast",)) -> list[str]:
    """The problems a person would see on ``page`` now (see the module's docstring)."""
    return list(page.evaluate(PROBE, {"inView": list(in_view), "share": share or {},
                                      "ignore": list(ignore)}))
