import { lazy, Suspense } from 'react';
import { useDialogMount } from '@/shared/components/dialog-mount';

// The form (and @mantine/form) load with the first opening, not with every page's header.
const CreateOrganisationDialog = lazy(() => import('./create-organisation-dialog'));

/**
 * Another organisation for the signed-in person (a staging one beside production, a client's…),
 * which they own. The header's organisation menu holds it on every page: while closed it is not
 * mounted (no modal, form or mutation hooks in the first load of each page), and its code is
 * loaded when it is first opened.
 */
export function CreateOrganisationModal({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}) {
  const dialog = useDialogMount(opened);
  return (
    dialog.mounted && (
      <Suspense fallback={null}>
        <CreateOrganisationDialog dialog={dialog} onClose={onClose} />
      </Suspense>
    )
  );
}
