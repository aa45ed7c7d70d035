import pino from 'pino';
import { InProcessNotificationBus } from '../notifications/notification-bus';
import { INTERRUPT_SETTLED_CHANNEL, InterruptWaits } from './interrupt-waits';

const ORG = '00000000-0000-4000-8000-000000000001';
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

function setUp() {
  const bus = new InProcessNotificationBus();
  const waits = new InterruptWaits(bus, pino({ enabled: false }));
  return { bus, waits };
}

describe('InterruptWaits', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('wakes the waits on the announced interrupt only, and releases them', async () => {
    const { waits } = setUp();
    const onA = waits.register(ORG, A);
    const onB = waits.register(ORG, B);
    const a = onA.until(60_000);
    const b = onB.until(60_000);
    expect(waits.size).toBe(2);
    await waits.announceSettled(ORG, A);
    await expect(a).resolves.toBe('settled');
    expect(waits.size).toBe(1);
    jest.advanceTimersByTime(60_000);
    await expect(b).resolves.toBe('elapsed');
    expect(waits.size).toBe(0);
  });

  it('an announcement between registering and waiting is not lost', async () => {
    const { bus, waits } = setUp();
    const wait = waits.register(ORG, A);
    await bus.publish(INTERRUPT_SETTLED_CHANNEL, `${ORG}:${A}`);
    await expect(wait.until(60_000)).resolves.toBe('settled');
    wait.release();
    expect(waits.size).toBe(0);
  });

  it('the same interrupt in another organisation is another key', async () => {
    const { waits } = setUp();
    const wait = waits.register(ORG, A);
    const held = wait.until(1_000);
    await waits.announceSettled('00000000-0000-4000-8000-000000000002', A);
    jest.advanceTimersByTime(1_000);
    await expect(held).resolves.toBe('elapsed');
  });

  it('a client that leaves releases its wait at once', async () => {
    const { waits } = setUp();
    const controller = new AbortController();
    const held = waits.register(ORG, A).until(60_000, controller.signal);
    controller.abort();
    await expect(held).resolves.toBe('disconnected');
    expect(waits.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('stopping ends every wait, and later waits end at once', async () => {
    const { waits } = setUp();
    const held = [waits.register(ORG, A).until(60_000), waits.register(ORG, B).until(60_000)];
    waits.stopWaiting();
    await expect(Promise.all(held)).resolves.toEqual(['stopping', 'stopping']);
    await expect(waits.register(ORG, A).until(60_000)).resolves.toBe('stopping');
    expect(waits.size).toBe(0);
  });

  it('release without waiting unregisters (idempotently)', () => {
    const { waits } = setUp();
    const wait = waits.register(ORG, A);
    wait.release();
    wait.release();
    expect(waits.size).toBe(0);
  });
});
