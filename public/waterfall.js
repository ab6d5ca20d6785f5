// The per-provider latency waterfall: one bar per provider asked, from the request's start to that provider's
// finish, coloured by status, with the deadline marked. Status and milliseconds are written out too, so the
// colour is never the only signal.

import { counted } from './answer-words.js';
import { element } from './results.js';

const NOT_CALLED = new Set(['not_configured', 'skipped', 'suspended']);

/**
 * Whoever asks their system for less motion gets still bars: redrawn ten times a second, a waiting provider's bar
 * crept across the panel for as long as the deadline (up to 30 s), the only motion on the page.
 */
const LESS_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * The rows are a table to a screen reader (the bars are hidden from it): as plain text, every provider's name,
 * status and reason ran together in one line, with nothing to say where one provider ended and the next began.
 */
function headerRow() {
  const header = (text) => element('span', { text, attributes: { role: 'columnheader' } });
  return element('div', { className: 'visually-hidden', attributes: { role: 'row' } }, [header('Provider'), header('Outcome'), header('Why')]);
}

export class Waterfall {
  /** @param container the element that holds the rows; @param providers names asked; @param deadlineMs the deadline to mark */
  constructor(container, providers, deadlineMs) {
    this.container = container;
    this.deadlineMs = deadlineMs;
    this.started = performance.now();
    this.outcomes = new Map();
    this.waiting = true;
    this.rows = new Map(providers.map((name) => [name, this.createRow(name)]));
    container.replaceChildren(headerRow(), ...this.rows.values());
    if (!matchMedia(LESS_MOTION).matches) this.timer = setInterval(() => this.redraw(), 100);
    this.redraw();
  }

  createRow(name) {
    const bar = element('span', { className: 'bar' });
    const marker = element('span', { className: 'deadline-marker', attributes: { 'aria-hidden': 'true', title: `deadline ${this.deadlineMs} ms` } });
    return element('div', { className: 'waterfall-row', attributes: { role: 'row', 'data-provider': name, 'data-status': 'pending' } }, [
      element('span', { className: 'provider-name', text: name, attributes: { role: 'rowheader' } }),
      element('span', { className: 'track', attributes: { 'aria-hidden': 'true' } }, [bar, marker]),
      element('span', { className: 'outcome', text: 'waiting…', attributes: { role: 'cell' } }),
      // Why a provider failed or was not asked, written out: a tooltip alone reaches no keyboard or touch user.
      element('span', { className: 'outcome-message', attributes: { role: 'cell' } }),
    ]);
  }

  /** A provider finished: fix its bar at its latency, with its status. */
  record(outcome) {
    this.keep(outcome);
    this.redraw();
  }

  /** Keeps `outcome`, with a row for its provider: one not listed at the start (providers=auto) gets its own. */
  keep(outcome) {
    this.outcomes.set(outcome.provider, outcome);
    if (this.rows.has(outcome.provider)) return;
    const row = this.createRow(outcome.provider);
    this.rows.set(outcome.provider, row);
    this.container.append(row);
  }

  /** The answer is complete (or abandoned): stop growing the bars of providers still waiting. */
  finish(outcomes = []) {
    // A cached answer streams no provider event: the answer's outcomes are the first word of whom the service chose.
    for (const outcome of outcomes) this.keep(outcome);
    this.waiting = false;
    clearInterval(this.timer);
    this.timer = undefined;
    this.redraw();
  }

  redraw() {
    const elapsed = performance.now() - this.started;
    const latest = Math.max(0, ...[...this.outcomes.values()].map((outcome) => outcome.latency_ms));
    const scale = Math.max(this.deadlineMs, latest, this.timer ? elapsed : 0) * 1.04 || 1;
    for (const [name, row] of this.rows) {
      const outcome = this.outcomes.get(name);
      const bar = row.querySelector('.bar');
      const marker = row.querySelector('.deadline-marker');
      marker.style.left = `${(this.deadlineMs / scale) * 100}%`;
      if (!outcome) {
        row.dataset.status = this.waiting ? 'pending' : 'unknown';
        // Still (no timer), a waiting bar runs to the deadline it may take, not along the time it has taken so far.
        const waited = this.timer ? Math.min(elapsed, scale) : this.deadlineMs;
        bar.style.width = this.waiting ? `${(waited / scale) * 100}%` : '0';
        // Finished without word from this provider (the stream was cut short): it is no longer waiting.
        if (!this.waiting) row.querySelector('.outcome').textContent = 'no answer';
        continue;
      }
      row.dataset.status = outcome.status;
      bar.style.width = NOT_CALLED.has(outcome.status) ? '0' : `${Math.max(0.5, (outcome.latency_ms / scale) * 100)}%`;
      // In words: "rate limited", "not configured".
      const label = outcome.status.replaceAll('_', ' ');
      const text = NOT_CALLED.has(outcome.status) ? label : `${label} ${outcome.latency_ms} ms`;
      const count = outcome.status === 'ok' ? ` · ${counted(outcome.count, 'result')}` : '';
      const outcomeText = row.querySelector('.outcome');
      outcomeText.textContent = `${text}${count}`;
      outcomeText.title = outcome.message ?? '';
      row.querySelector('.outcome-message').textContent = outcome.status === 'ok' ? '' : (outcome.message ?? '');
    }
  }
}
