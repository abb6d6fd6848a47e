import type { DelayUnit, WeekDay } from './sequence-step.schema.js';

/**
 * When a sequence step is due: pure arithmetic on instants, no database and no clock of its own.
 * Send windows are wall-clock times in the workspace's zone, so a window stays at 09:00 local
 * across a daylight-saving change; the zone's offsets come from Intl (no zone database of ours).
 */

export interface StepTiming {
  delayUnit: DelayUnit;
  delayDays: number | null;
  delayMinutes: number | null;
  specificDateTime: string | null;
  anytime: boolean;
  sendTimeStart: string | null;
  sendTimeEnd: string | null;
  sendDays: readonly WeekDay[];
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const dayNames: readonly WeekDay[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The instant the step is due, `after` the previous one ran (or the subscription), before its window moves it. */
export function delayedFrom(step: StepTiming, after: Date): Date {
  switch (step.delayUnit) {
    case 'immediate':
      return after;
    case 'minutes':
    case 'hours':
      return new Date(after.getTime() + (step.delayMinutes ?? 0) * MINUTE);
    case 'days':
      return new Date(after.getTime() + (step.delayDays ?? 0) * DAY);
    case 'specificTime': {
      // A moment already past is due at once: the subscriber joined after it.
      const at = step.specificDateTime === null ? after.getTime() : Date.parse(step.specificDateTime);
      return new Date(Math.max(at, after.getTime()));
    }
  }
}

/** When the step is due: its delay from `after`, then moved to the next moment its send window is open. */
export const stepDueAt = (step: StepTiming, after: Date, timeZone: string): Date => nextOpenMoment(step, delayedFrom(step, after), timeZone);

/** Whether the step may be sent at `at` (its window is open, or it has none). */
export const windowOpen = (step: StepTiming, at: Date, timeZone: string): boolean => nextOpenMoment(step, at, timeZone).getTime() === at.getTime();

/**
 * `at` itself when the window is open then, else the next opening. Each window belongs to the day
 * it starts on (an overnight 22:00-06:00 window of Friday runs into Saturday); its end minute is
 * included, as in the comment automations' schedules.
 */
export function nextOpenMoment(step: StepTiming, at: Date, timeZone: string): Date {
  if (step.anytime || step.sendTimeStart === null || step.sendTimeEnd === null || step.sendDays.length === 0) return at;
  const zone = usableZone(timeZone);
  const start = minutesOf(step.sendTimeStart);
  const end = minutesOf(step.sendTimeEnd) + 1;
  const overnight = end <= start;
  const today = wallClock(at, zone);
  const t = at.getTime();
  // From yesterday (its overnight window may still be open) to a week ahead: every day is seen.
  for (let k = -1; k <= 8; k++) {
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day + k));
    if (!step.sendDays.includes(dayNames[day.getUTCDay()]!)) continue;
    const opens = zonedInstant(day, start, zone);
    const closes = zonedInstant(overnight ? new Date(day.getTime() + DAY) : day, end, zone);
    if (t < opens) return new Date(opens);
    if (t < closes) return at;
  }
  return at;
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone if Intl knows it, else UTC (a workspace's zone is free text). */
function usableZone(timeZone: string): string {
  if (!timeZone) return 'UTC';
  if (formats.has(timeZone)) return timeZone;
  try {
    formatOf(timeZone);
    return timeZone;
  } catch {
    return 'UTC';
  }
}

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' });
    if (formats.size > 1000) formats.clear();
    formats.set(timeZone, format);
  }
  return format;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(at: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatOf(timeZone).formatToParts(at)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** How far the zone's wall clock is ahead of UTC at `t` (ms). */
function offsetAt(t: number, timeZone: string): number {
  const w = wallClock(new Date(t), timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(t / 1000) * 1000;
}

/** The instant the zone's clocks show `minutes` past midnight on the (UTC-midnight) `day`; in a spring-forward gap, the moment after it. */
function zonedInstant(day: Date, minutes: number, timeZone: string): number {
  const wall = day.getTime() + minutes * MINUTE;
  const first = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(first, timeZone);
  return Math.max(first, second);
}
