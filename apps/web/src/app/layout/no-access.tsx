import type { Permission } from '@interlock/api-client';
import { Anchor, Code, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '@/shared/components/page-header';

/** A page the member's role does not open: says which permission would, and offers nothing else. */
export function NoAccess({ needs }: { needs: Permission[] }) {
  return (
    <>
      <PageHeader title="Not available to your role" />
      <Text>
        This page needs {needs.length === 1 ? 'the permission' : 'one of the permissions'}{' '}
        {needs.map((p, i) => (
          <span key={p}>
            {i > 0 && ' or '}
            <Code>{p}</Code>
          </span>
        ))}
        . An Owner can give it to your role (Roles).{' '}
        <Anchor component={Link} to="/">
          Go to the start page
        </Anchor>
        .
      </Text>
    </>
  );
}
