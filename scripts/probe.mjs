#!/usr/bin/env node
// Health probes for containers (the image has no curl): compose healthchecks and the workers' exec probes, since
// workers listen on no port.
//   node scripts/probe.mjs http <url>           the URL answers 2xx within 3 s
//   node scripts/probe.mjs reach [VAR...]       a TCP connection to each URL variable's host opens within 2 s
//                                               (default: every *_DATABASE_URL, REDIS_URL and AMQP_URL set)
//   node scripts/probe.mjs connected VAR...     this container holds an established TCP connection to the port of
//                                               each URL variable (a BullMQ worker always holds one to Redis)
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

const DEFAULT_PORTS = {
  'postgresql:': 5432,
  'postgres:': 5432,
  'redis:': 6379,
  'rediss:': 6379,
  'redis+cluster:': 6379,
  'rediss+cluster:': 6379,
  'amqp:': 5672,
  'amqps:': 5671,
};

function target(variable) {
  const value = process.env[variable];
  if (!value) throw new Error(`${variable} is not set`);
  const url = new URL(value);
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol];
  if (!port) throw new Error(`${variable}: no port for ${url.protocol}`);
  return { variable, host: url.hostname.replace(/^\[|\]$/g, ''), port };
}

function dependencies() {
  return Object.keys(process.env)
    .filter((name) => /_DATABASE_URL$/.test(name) || name === 'REDIS_URL' || name === 'AMQP_URL')
    .sort();
}

async function http(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
}

function reach({ variable, host, port }) {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const fail = (why) => {
      socket.destroy();
      reject(new Error(`${variable} (${host}:${port}): ${why}`));
    };
    socket.setTimeout(2000, () => fail('timed out'));
    socket.once('error', (err) => fail(err.message));
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
  });
}

/** Remote ports of established TCP connections in this network namespace (the pod's, in Kubernetes). */
function establishedRemotePorts() {
  const ports = new Set();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // fields[2] is rem_address as HEXIP:HEXPORT; state 01 is ESTABLISHED.
      if (fields.length > 3 && fields[3] === '01') ports.add(parseInt(fields[2].split(':')[1], 16));
    }
  }
  return ports;
}

async function main() {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === 'http' && args.length === 1) {
    await http(args[0]);
  } else if (mode === 'reach') {
    await Promise.all((args.length ? args : dependencies()).map((v) => reach(target(v))));
  } else if (mode === 'connected' && args.length > 0) {
    const ports = establishedRemotePorts();
    for (const t of args.map(target))
      if (!ports.has(t.port)) throw new Error(`${t.variable}: no established connection to port ${t.port}`);
  } else {
    console.error('usage: node scripts/probe.mjs http <url> | reach [VAR...] | connected VAR...');
    process.exit(2);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`probe failed: ${err.message}`);
    process.exit(1);
  },
);
