import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '@/shared/components/page-header';

export function NotFoundRoute() {
  return (
    <>
      <PageHeader title="Page not found" />
      <Text>
        There is no page at this address.{' '}
        <Anchor component={Link} to="/">
          Go to the start page
        </Anchor>
        .
      </Text>
    </>
  );
}
