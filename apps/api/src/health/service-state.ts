/**
 * Where the process is in its life, as readiness reports it. `draining` turns on when SIGTERM
 * arrives (main.ts) and never off: from then on `/health/ready` answers 503 so that load
 * balancers stop sending traffic, while the process keeps serving for the drain delay.
 */
export class ServiceState {
  private drainingSince: number | undefined;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  beginDraining(): void {
    this.drainingSince ??= Date.now();
  }
}
