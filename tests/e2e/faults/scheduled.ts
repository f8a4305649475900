import type { ApiClient } from '@confab/devkit';
import { eventually, sleep } from './stack';

/**
 * How far ahead the fault tests schedule: scheduling 20 messages and stopping a process must end before the first
 * is due on a busy machine (a time already past is refused), and the suite runs three files at a time.
 */
export const LEAD_SECONDS = 20;

/** Waits until `unixSeconds` has passed by `marginMs`: the due time of what was scheduled, not an ordering guess. */
export async function untilPast(unixSeconds: number, marginMs: number): Promise<void> {
  await sleep(Math.max(0, unixSeconds * 1000 + marginMs - Date.now()));
}

/** Schedules messages into one topic of a channel and reads back, through GET /messages, how often each arrived. */
export class ScheduledProbe {
  constructor(
    private readonly client: ApiClient,
    private readonly channelId: number,
  ) {}

  /** Schedules `count` messages (contents `<tag> <i>`) due at `dueAt(i)`, in parallel batches of 25. */
  async scheduleAll(tag: string, dueAt: (i: number) => number, count: number): Promise<string[]> {
    const contents = Array.from({ length: count }, (_, i) => `${tag} ${i}`);
    // In parallel batches, so that all are scheduled well before the first is due.
    for (let start = 0; start < count; start += 25) {
      const statuses = await Promise.all(
        contents.slice(start, start + 25).map(async (content, j) => {
          const response = await this.client.post('/scheduled_messages', {
            type: 'stream',
            to: String(this.channelId),
            topic: tag,
            content,
            scheduled_delivery_timestamp: dueAt(start + j),
          });
          return response.status;
        }),
      );
      expect(statuses).toEqual(statuses.map(() => 200));
    }
    return contents;
  }

  /** How many times each content appears in the topic (empty while the read fails). */
  async deliveredCounts(tag: string): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const [content, stamps] of await this.deliveredTimes(tag)) counts.set(content, stamps.length);
    return counts;
  }

  /** The timestamps (s) of each content's messages in the topic (empty while the read fails). */
  async deliveredTimes(tag: string): Promise<Map<string, number[]>> {
    const response = await this.client.get('/messages', {
      anchor: 'newest',
      num_before: 1000,
      num_after: 0,
      apply_markdown: false,
      narrow: [
        { operator: 'channel', operand: this.channelId },
        { operator: 'topic', operand: tag },
      ],
    });
    if (response.status !== 200) return new Map();
    const times = new Map<string, number[]>();
    for (const m of response.body.messages as { content: string; timestamp: number }[])
      times.set(m.content, [...(times.get(m.content) ?? []), m.timestamp]);
    return times;
  }

  /** Every delivered message is stamped at or after its scheduled time: never early. */
  async expectNoneEarly(tag: string, dueAt: (i: number) => number): Promise<void> {
    const times = await this.deliveredTimes(tag);
    const early = [...times].flatMap(([content, stamps]) => {
      const due = dueAt(Number(content.slice(tag.length + 1)));
      return stamps.filter((t) => t < due).map((t) => ({ content, due, stamped: t }));
    });
    expect(early).toEqual([]);
  }

  /** Scheduled messages still waiting. */
  async pending(): Promise<number> {
    const response = await this.client.get('/scheduled_messages');
    expect(response.status).toBe(200);
    return (response.body.scheduled_messages as unknown[]).length;
  }

  /** Waits until every content has arrived, lets any duplicate land, then checks each arrived exactly once. */
  async expectEachOnce(tag: string, contents: string[], timeoutMs = 60_000): Promise<void> {
    await eventually(
      () => this.deliveredCounts(tag),
      (c) => c.size === contents.length,
      timeoutMs,
    );
    await sleep(2000);
    const final = await this.deliveredCounts(tag);
    expect(contents.filter((c) => final.get(c) !== 1)).toEqual([]);
    expect([...final.values()].reduce((a, b) => a + b, 0)).toBe(contents.length);
    expect(await this.pending()).toBe(0);
  }
}
