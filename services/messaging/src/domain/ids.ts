/** Largest value of a PostgreSQL integer column: ids beyond it cannot exist (and must not reach a query). */
export const MAX_INT = 2_147_483_647;

/** Whether a number can be the id of a stored row. */
export const validId = (id: number): boolean => Number.isSafeInteger(id) && id > 0 && id <= MAX_INT;
