import { serveLoader } from '@confab/porting';
import { createPrisma } from '../repositories/prisma.js';
import { GroupsImportLoader } from './import.js';

// The groups service's import part as a process of its own, spoken to by the admin CLI's `import` over stdin and
// stdout (libs/porting's loader protocol); it sees only GROUPS_DATABASE_URL.
const url = process.env.GROUPS_DATABASE_URL;
if (!url) throw new Error('GROUPS_DATABASE_URL is required');
serveLoader(new GroupsImportLoader(createPrisma(url, 2)));
