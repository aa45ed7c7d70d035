import { notifications } from '@mantine/notifications';
import { errorMessage } from './errors';

export function notifySuccess(message: string): void {
  notifications.show({ color: 'teal', message, autoClose: 4000 });
}

/** Shows the API's exact message. */
export function notifyError(error: unknown, title?: string): void {
  notifications.show({ color: 'red', title, message: errorMessage(error), autoClose: 8000 });
}
