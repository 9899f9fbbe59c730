import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router } from '../trpc.js';
import { contactPersonResource } from './contactperson/contactperson.resource.js';
import {
  organizationCustomFieldGroupResource,
  organizationCustomFieldResource,
  personCustomFieldGroupResource,
  personCustomFieldResource,
} from './custom-fields.resources.js';
import { debtorResource } from './debtor/debtor.resource.js';
import { myOrganizationProfileResource, myOrganizationResource } from './myorganization/myorganization.resource.js';
import { mergeRouter } from './merge/merge.router.js';
import { organizationRouter } from './organization/organization.router.js';
import { personResource } from './person/person.resource.js';
import {
  countryResource,
  documentTypeResource,
  genderResource,
  industryResource,
  interestResource,
  organizationSizeResource,
  relationTypeResource,
} from './reference/reference.resources.js';

export const crmResources: AnyResource[] = [
  personResource,
  contactPersonResource,
  myOrganizationProfileResource,
  myOrganizationResource,
  countryResource,
  genderResource,
  industryResource,
  interestResource,
  organizationSizeResource,
  relationTypeResource,
  debtorResource,
  documentTypeResource,
  organizationCustomFieldResource,
  personCustomFieldResource,
  organizationCustomFieldGroupResource,
  personCustomFieldGroupResource,
];

export const crmRouter = router({
  organization: organizationRouter,
  merge: mergeRouter,
  person: resourceRouter(personResource),
  contactperson: resourceRouter(contactPersonResource),
  myorganizationprofile: resourceRouter(myOrganizationProfileResource),
  myorganization: resourceRouter(myOrganizationResource),
  country: resourceRouter(countryResource),
  gender: resourceRouter(genderResource),
  industry: resourceRouter(industryResource),
  interests: resourceRouter(interestResource),
  organizationsize: resourceRouter(organizationSizeResource),
  relationtype: resourceRouter(relationTypeResource),
  debtor: resourceRouter(debtorResource),
  documenttype: resourceRouter(documentTypeResource),
  organizationcustomfields: resourceRouter(organizationCustomFieldResource),
  personcustomfields: resourceRouter(personCustomFieldResource),
  organizationcustomfieldgroups: resourceRouter(organizationCustomFieldGroupResource),
  personcustomfieldgroups: resourceRouter(personCustomFieldGroupResource),
});
