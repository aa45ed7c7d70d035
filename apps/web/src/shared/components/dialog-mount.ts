import { useEffect, useRef, useState } from 'react';

/**
 * Keeps a Mantine Modal out of the page while it is closed: a closed Modal still runs its
 * scroll-lock, focus-return and transition hooks on every render of the page around it (the
 * inbox's three dialogs cost ~48 ms of its first load). The dialog mounts closed when `open`
 * turns true and opens one render later, so Mantine records the element to give focus back to
 * and plays its opening transition; it unmounts once its closing transition has ended.
 */
export function useDialogMount(open: boolean) {
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  const openRef = useRef(open);
  openRef.current = open;
  if (open && !mounted) setMounted(true);
  useEffect(() => setOpened(open && mounted), [open, mounted]);
  return {
    mounted,
    opened,
    onExitTransitionEnd: () => {
      if (!openRef.current) setMounted(false);
    },
  };
}

/** What `useDialogMount` answers, for the dialog it mounts. */
export type DialogMount = ReturnType<typeof useDialogMount>;
