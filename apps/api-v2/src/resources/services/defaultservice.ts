import { createDefaultServiceInput, updateDefaultServiceInput } from '@bo/domain/services/defaultservice/defaultservice.schema';
import { type DefaultService, defaultService } from '@bo/domain/services/defaultservice/defaultservice.entity';
import { invoiceMethodFromV2, invoiceMethodToV2 } from '../projects/invoice-method.js';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names({ hourtype_id: 'hourTypeId', costtype_id: 'costTypeId' });

/** services/defaultservice: the reference's DefaultService plus what a project service is built from. */
export const defaultServiceV2 = v2Resource<DefaultService>({
  path: 'services/defaultservice',
  entity: defaultService,
  inputs: { create: createDefaultServiceInput, update: updateDefaultServiceInput, remove: true },
  procedures: (c) => c.services.defaultservice,
  names,
  input: (body) => {
    const data = names.input(body) as Record<string, unknown>;
    if (body.invoice_method !== undefined) data.invoiceMethod = invoiceMethodFromV2(body.invoice_method);
    return { data };
  },
  read: (d) => ({
    id: d.id,
    vat_class: d.vatClassId ? { id: d.vatClassId, code: null, label: null, percentage: null } : null,
    revenue_group: d.revenueGroupId ? { id: d.revenueGroupId, label: null } : null,
    my_organization_profile_id: d.myOrganizationProfileId,
    name: d.name,
    explanation: d.explanation,
    price_editable: d.priceEditable,
    price: d.price,
    invoice_method: invoiceMethodToV2(d.invoiceMethod),
    track_hours: d.trackHours,
    track_cost: d.trackCost,
    hour_types: d.hourTypes.map((h) => ({
      hourtype_id: h.hourType?.id ?? null,
      label: h.hourType?.label ?? null,
      tariff: h.tariff,
      budgeted_amount: h.budgetedAmount,
    })),
    cost_types: d.costTypes.map((c) => ({
      costtype_id: c.costType?.id ?? null,
      label: c.costType?.label ?? null,
      tariff: c.tariff,
      purchase_tariff: c.purchaseTariff,
      budgeted_amount: c.budgetedAmount,
    })),
    created_at: v2DateTime(d.createdAt),
    updated_at: v2DateTime(d.updatedAt),
    modified: v2DateTime(d.updatedAt),
  }),
});
