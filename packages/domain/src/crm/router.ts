import { router } from '../trpc.js';
import { contactPersonRouter } from './contactperson/contactperson.router.js';
import { debtor } from './debtor/debtor.entity.js';
import { myOrganizationProfileRouter, myOrganizationRouter } from './myorganization/myorganization.router.js';
import { mergeRouter } from './merge/merge.router.js';
import { organizationRouter } from './organization/organization.router.js';
import { personRouter } from './person/person.router.js';
import { areaDocumentRouters, DOCUMENT_AREAS } from '../documents/area-documents.js';
import { entityQueries } from '../shared/entity/index.js';
import { country, gender, industry, interest, organizationSize, relationType } from './reference/reference.entities.js';

export const crmRouter = router({
  organization: organizationRouter,
  merge: mergeRouter,
  person: personRouter,
  contactperson: contactPersonRouter,
  myorganizationprofile: myOrganizationProfileRouter,
  myorganization: myOrganizationRouter,
  country: router(entityQueries(country)),
  gender: router(entityQueries(gender)),
  industry: router(entityQueries(industry)),
  interests: router(entityQueries(interest)),
  organizationsize: router(entityQueries(organizationSize)),
  relationtype: router(entityQueries(relationType)),
  debtor: router(entityQueries(debtor)),
  /** the documents of organizations and persons, and their document types, under the CRM right */
  ...areaDocumentRouters(DOCUMENT_AREAS.crm),
});
