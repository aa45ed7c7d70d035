/** Whether this browser shows notifications (the member turned them on here, and the browser allows them). */
const KEY = 'interlock.browserNotifications';

export function browserNotificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

export function browserNotificationsOn(): boolean {
  return (
    browserNotificationsSupported() &&
    Notification.permission === 'granted' &&
    window.localStorage.getItem(KEY) === 'on'
  );
}

/** Asks the browser's permission (the member clicked); true when notifications are now on. */
export async function turnOnBrowserNotifications(): Promise<boolean> {
  if (!browserNotificationsSupported()) return false;
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return false;
  window.localStorage.setItem(KEY, 'on');
  return true;
}

export function turnOffBrowserNotifications(): void {
  window.localStorage.removeItem(KEY);
}
