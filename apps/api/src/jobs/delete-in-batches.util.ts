/**
 * A sweep's loop: runs `deleteBatch` (one statement deleting at most `batch` rows, so no run holds
 * locks for long) again while it fills its batch, at most `maxBatches` times — the next run
 * carries on. Returns the rows deleted in all.
 */
export async function deleteInBatches(
  deleteBatch: () => Promise<number>,
  batch: number,
  maxBatches: number,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const deleted = await deleteBatch();
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}
