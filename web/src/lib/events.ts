import type { ReceivedEvent } from '@confab/zulip';
import type { RegisterState } from '../store/register-state';
import { api, ApiError } from './api';

export type { RegisterState } from '../store/register-state';

/** An event as GET /events hands it over: one of Zulip's client events, with its id in the queue. */
export type ServerEvent = ReceivedEvent;

/**
 * The event loop of a Zulip client: register a queue, long-poll /events, hand each batch over. A dropped poll is
 * retried with growing pauses; an expired queue (BAD_EVENT_QUEUE_ID) means registering again, with fresh state.
 */
export class EventLoop {
  private stopped = false;
  private controller = new AbortController();
  /** The browser came back online: the next attempt goes at once, without its pause. */
  private hurry = false;
  private wakeUp: (() => void) | null = null;
  // The browser knows at once when the network goes (the long poll would only notice when it times out) and when it
  // comes back (the next attempt would otherwise wait out its pause, and missed events arrive seconds late).
  private readonly onOffline = () => this.onStatus('reconnecting');
  private readonly onOnline = () => {
    this.hurry = true;
    this.controller.abort();
    this.controller = new AbortController();
    this.wakeUp?.();
  };

  constructor(
    private readonly onState: (state: RegisterState) => void,
    private readonly onEvents: (events: ServerEvent[]) => void,
    private readonly onStatus: (status: 'live' | 'reconnecting') => void,
    private readonly onSignedOut: () => void,
  ) {}

  start(): void {
    window.addEventListener('offline', this.onOffline);
    window.addEventListener('online', this.onOnline);
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('offline', this.onOffline);
    window.removeEventListener('online', this.onOnline);
    this.controller.abort();
  }

  private async run(): Promise<void> {
    let pause = 500;
    while (!this.stopped) {
      let state: RegisterState;
      try {
        state = await api.post<RegisterState>('/register', {
          apply_markdown: true,
          client_gravatar: false,
          slim_presence: true,
          client_capabilities: { stream_typing_notifications: true, linkifier_url_template: true },
        });
      } catch (err) {
        if (this.signedOut(err)) return;
        this.onStatus('reconnecting');
        await this.wait(pause);
        pause = Math.min(pause * 2, 10_000);
        continue;
      }
      this.onState(state);
      this.onStatus('live');
      pause = 500;
      let last = state.last_event_id;
      for (;;) {
        if (this.stopped) return;
        try {
          const answer = await api.get<{ events: ServerEvent[] }>(
            '/events',
            { queue_id: state.queue_id, last_event_id: last },
            this.controller.signal,
          );
          const events = answer.events.filter((e) => e.type !== 'heartbeat');
          if (answer.events.length > 0) last = Math.max(last, ...answer.events.map((e) => e.id));
          if (events.length > 0) this.onEvents(events);
          this.onStatus('live');
          pause = 500;
        } catch (err) {
          if (this.stopped || this.signedOut(err)) return;
          if (err instanceof ApiError && err.code === 'BAD_EVENT_QUEUE_ID') break;
          this.onStatus('reconnecting');
          await this.wait(pause);
          pause = Math.min(pause * 2, 10_000);
        }
      }
    }
  }

  private signedOut(err: unknown): boolean {
    if (err instanceof ApiError && err.status === 401) {
      this.stopped = true;
      this.onSignedOut();
      return true;
    }
    return false;
  }

  /** A pause before the next attempt, cut short when the browser comes back online. */
  private wait(ms: number): Promise<void> {
    if (this.hurry) {
      this.hurry = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.hurry = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }
}
