import { join } from 'node:path';
import { serveLoader } from '@confab/porting';
import { MessagingImportLoader } from './import.js';

// The messaging service's import part as a process of its own, spoken to by the admin CLI's `import` over stdin and
// stdout (libs/porting's loader protocol); it sees only its own database and file store.
const url = process.env.MESSAGING_DATABASE_URL;
if (!url) throw new Error('MESSAGING_DATABASE_URL is required');
const uploadsDir =
  process.env.MESSAGING_UPLOADS_DIR ||
  (process.env.CONFAB_DATA_DIR ? join(process.env.CONFAB_DATA_DIR, 'uploads') : '');
if (!uploadsDir) throw new Error('MESSAGING_UPLOADS_DIR or CONFAB_DATA_DIR is required');
serveLoader(new MessagingImportLoader({ url, uploadsDir }));
