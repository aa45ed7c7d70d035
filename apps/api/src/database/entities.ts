import { OrganisationEntity } from '../organisation/organisation.entity';

/** Every entity of the one data source. */
export const ENTITIES = [OrganisationEntity];
