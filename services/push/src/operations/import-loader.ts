import { serveLoader } from '@confab/porting';
import { createPrisma } from '../repositories/prisma.js';
import { PushImportLoader } from './import.js';

// The push service's import part as a process of its own (libs/porting's loader protocol); it sees only
// PUSH_DATABASE_URL.
const url = process.env.PUSH_DATABASE_URL;
if (!url) throw new Error('PUSH_DATABASE_URL is required');
serveLoader(new PushImportLoader(createPrisma(url, 2)));
