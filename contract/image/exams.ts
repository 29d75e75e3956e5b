import { z } from 'zod/mini'
import { IdSchema, pageOf, PageQuerySchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { DateSchema, ExamSummarySchema, ModalitySchema } from '../main/records'

/*
 * The personal image service's exam info list (personalImage/list): the caller's exams inside one
 * hospital (or the uploads group), newest first, with date and modality filters.
 */

export const listExams = defineEndpoint({
  service: 'image',
  method: 'GET',
  path: '/exams',
  input: z.extend(PageQuerySchema, {
    /** 当前就诊人: a family member's personId (contract/main/family.ts); absent: the caller. */
    personId: z.optional(IdSchema),
    /** A hospital id, or `upload` (UPLOADS_GROUP) for my uploads; absent: all my exams. */
    hospitalId: z.optional(IdSchema),
    /** Exams whose study has a series of this modality (CT, MR ...). */
    modality: z.optional(ModalitySchema),
    dateFrom: z.optional(DateSchema),
    dateTo: z.optional(DateSchema),
  }),
  output: pageOf(ExamSummarySchema),
  auth: true,
  summary: '检查信息列表（按医院，日期与检查类型筛选）',
})
