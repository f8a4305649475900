import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// The js schema engine and the pg driver adapter: no native engine download (see ../../README.md).
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  async adapter() {
    // A short idle timeout lets the CLI exit as soon as it is done instead of waiting 10 s for idle connections.
    return new PrismaPg({ connectionString: process.env.INVITATIONS_DATABASE_URL!, idleTimeoutMillis: 100 });
  },
});
