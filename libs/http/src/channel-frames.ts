import type { Socket } from 'node:net';

// The frames of a persistent multiplexed channel (docs/architecture.md, "The gateway"): the gateway sends a
// service's requests over a few long-lived TCP connections instead of one HTTP request each, so neither side parses
// HTTP per request. Every frame is a 4-byte length (of what follows it), a 1-byte type and a 4-byte request id, then
// its payload; integers are big-endian.

export const FRAME = {
  /** gateway → service: `u32 head length`, head (JSON `[method, url, headers]`), body. */
  request: 1,
  /** gateway → service: the client went away; the request ends (a long poll stops waiting). No payload. */
  cancel: 2,
  /** service → gateway: `u16 status`, `u32 head length`, head (JSON headers), body. */
  answer: 3,
  /** service → gateway: the service is stopping; send nothing more here and close once every answer came. Id 0. */
  goaway: 4,
} as const;

const PREFIX = 9;
/** Larger frames are a broken peer, not a request: the connection is dropped. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export interface ChannelRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ChannelAnswerFrame {
  status: number;
  headers: Record<string, string | number | string[]>;
  body: Buffer;
}

function frame(type: number, id: number, payloadBytes: number): Buffer {
  const buf = Buffer.allocUnsafe(PREFIX + payloadBytes);
  buf.writeUInt32BE(PREFIX - 4 + payloadBytes, 0);
  buf[4] = type;
  buf.writeUInt32BE(id, 5);
  return buf;
}

export function encodeRequest(id: number, request: ChannelRequest): Buffer {
  const head = JSON.stringify([request.method, request.url, request.headers]);
  const headBytes = Buffer.byteLength(head);
  const buf = frame(FRAME.request, id, 4 + headBytes + request.body.length);
  buf.writeUInt32BE(headBytes, PREFIX);
  buf.write(head, PREFIX + 4, 'utf8');
  request.body.copy(buf, PREFIX + 4 + headBytes);
  return buf;
}

export function decodeRequest(payload: Buffer): ChannelRequest {
  const headBytes = payload.readUInt32BE(0);
  const [method, url, headers] = JSON.parse(payload.toString('utf8', 4, 4 + headBytes)) as [
    string,
    string,
    Record<string, string>,
  ];
  return { method, url, headers, body: payload.subarray(4 + headBytes) };
}

export function encodeAnswer(
  id: number,
  status: number,
  headers: Record<string, string | number | string[]>,
  body: string | Buffer,
): Buffer {
  const head = JSON.stringify(headers);
  const headBytes = Buffer.byteLength(head);
  const bodyBytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const buf = frame(FRAME.answer, id, 6 + headBytes + bodyBytes);
  buf.writeUInt16BE(status, PREFIX);
  buf.writeUInt32BE(headBytes, PREFIX + 2);
  buf.write(head, PREFIX + 6, 'utf8');
  if (typeof body === 'string') buf.write(body, PREFIX + 6 + headBytes, 'utf8');
  else body.copy(buf, PREFIX + 6 + headBytes);
  return buf;
}

export function decodeAnswer(payload: Buffer): ChannelAnswerFrame {
  const status = payload.readUInt16BE(0);
  const headBytes = payload.readUInt32BE(2);
  const headers = JSON.parse(payload.toString('utf8', 6, 6 + headBytes)) as ChannelAnswerFrame['headers'];
  return { status, headers, body: payload.subarray(6 + headBytes) };
}

/** A frame without a payload (cancel, goaway). */
export function encodeSignal(type: number, id: number): Buffer {
  return frame(type, id, 0);
}

/**
 * Cuts a connection's bytes into frames. A frame split over several reads is assembled once it is whole (its
 * pieces are kept, not copied on every read); `push` throws on a frame no peer of ours sends.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes the frame at the front needs (0: not known yet). */
  private needed = 0;

  constructor(private readonly onFrame: (type: number, id: number, payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered < PREFIX || this.buffered < this.needed) return;
    let buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
    let offset = 0;
    for (;;) {
      const left = buf.length - offset;
      if (left < PREFIX) break;
      const length = buf.readUInt32BE(offset);
      if (length < PREFIX - 4 || length > MAX_FRAME_BYTES) throw new Error(`bad channel frame of ${length} bytes`);
      if (left < 4 + length) {
        this.needed = 4 + length;
        break;
      }
      this.needed = 0;
      this.onFrame(buf[offset + 4]!, buf.readUInt32BE(offset + 5), buf.subarray(offset + PREFIX, offset + 4 + length));
      offset += 4 + length;
    }
    buf = buf.subarray(offset);
    this.chunks = buf.length > 0 ? [buf] : [];
    this.buffered = buf.length;
  }
}

/**
 * Writes frames to a connection in batches: what is sent while the process handles one round of I/O (a broadcast
 * answering a thousand polls, a thousand new polls arriving together) leaves in one write after it.
 */
export class FrameWriter {
  private queued: Buffer[] = [];
  private bytes = 0;
  private scheduled = false;

  constructor(private readonly socket: Socket) {}

  send(frameBytes: Buffer): void {
    this.queued.push(frameBytes);
    this.bytes += frameBytes.length;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  /** Writes what is queued now (also before the connection is ended). */
  readonly flush = (): void => {
    this.scheduled = false;
    const queued = this.queued;
    if (queued.length === 0) return;
    const bytes = this.bytes;
    this.queued = [];
    this.bytes = 0;
    if (this.socket.destroyed || !this.socket.writable) return;
    this.socket.write(queued.length === 1 ? queued[0]! : Buffer.concat(queued, bytes));
  };
}
