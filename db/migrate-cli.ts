// Applies the migrations to DATABASE_URL (or the embedded database) and exits.
import { closeDb, getHandle } from './client';

const handle = await getHandle();
console.log(`Migrations applied (${handle.driver}).`);
await closeDb();
