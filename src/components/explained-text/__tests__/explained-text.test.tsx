import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { profile } from '@/services/__tests__/account-fixtures'
import { analyseText, type GlossaryTerm, KNOWLEDGE_MESSAGES } from '@/services/knowledge'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderComponent } from '../../../../jest/taro-render'
import { ExplainedText } from '..'
import { clearTextAnalyses } from '../use-text-analysis'

jest.mock('@/services/knowledge', () => ({
  ...jest.requireActual<typeof import('@/services/knowledge')>('@/services/knowledge'),
  analyseText: jest.fn(),
}))

/* 通俗解释 in running text: terms underlined, a tap explains, any failure leaves the text plain. */

const TEXT = '右肺上叶见磨玻璃结节，未见钙化灶。'

const GGN: GlossaryTerm = {
  id: 'chest.ground-glass-nodule',
  term: '磨玻璃结节',
  aliases: ['毛玻璃结节', 'GGO'],
  category: 'chest',
  categoryLabel: '胸部与乳腺',
  explanation: '磨玻璃结节是肺里一小片淡淡的云雾状影。',
  followUp: {
    text: '小于 6 mm 一般不需要常规复查。',
    source: 'Fleischner Society 2017 偶发肺结节处理指南',
  },
}

const CALCIFICATION: GlossaryTerm = {
  id: 'general.calcification',
  term: '钙化灶',
  aliases: [],
  category: 'general',
  categoryLabel: '通用与检查技术',
  explanation: '钙化灶是组织里沉积了钙盐。',
  followUp: null,
}

const ANSWER = {
  spans: [
    { start: 5, end: 10, termId: GGN.id },
    { start: 13, end: 16, termId: CALCIFICATION.id },
  ],
  terms: { [GGN.id]: GGN, [CALCIFICATION.id]: CALCIFICATION },
}

function signIn() {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
}

const underlined = () =>
  Array.from(document.querySelectorAll('.explained-text__term')).map((el) => el.textContent)

beforeEach(() => {
  resetStores()
  clearTextAnalyses()
  jest.clearAllMocks()
  jest.mocked(analyseText).mockResolvedValue(ANSWER)
  signIn()
})

describe('ExplainedText', () => {
  it('underlines the terms the server found and keeps the text whole', async () => {
    const shown = await renderComponent(<ExplainedText text={TEXT} className="report-text" />)
    await waitFor(() => expect(underlined()).toEqual(['磨玻璃结节', '钙化灶']))
    expect(shown.container.querySelector('.report-text')!.textContent).toBe(TEXT)
    expect(analyseText).toHaveBeenCalledWith(TEXT)
  })

  it('a tap opens the term, its explanation, the follow-up with its source, and the caveat', async () => {
    await renderComponent(<ExplainedText text={TEXT} />)
    const term = await screen.findByText('磨玻璃结节')
    await act(async () => {
      fireEvent.click(term)
    })
    expect(await screen.findByText(GGN.explanation)).toBeTruthy()
    expect(screen.getByText(GGN.followUp!.text)).toBeTruthy()
    expect(screen.getByText(`来源：${GGN.followUp!.source}`)).toBeTruthy()
    expect(screen.getByText(KNOWLEDGE_MESSAGES.caveat)).toBeTruthy()
  })

  it('a term without a follow-up shows no follow-up, still the caveat', async () => {
    await renderComponent(<ExplainedText text={TEXT} />)
    const term = await screen.findByText('钙化灶')
    await act(async () => {
      fireEvent.click(term)
    })
    expect(await screen.findByText(CALCIFICATION.explanation)).toBeTruthy()
    expect(screen.queryByText('通常怎么随访')).toBeNull()
    expect(screen.getByText(KNOWLEDGE_MESSAGES.caveat)).toBeTruthy()
  })

  it('falls back to the plain text when the call fails, with no error shown', async () => {
    jest.mocked(analyseText).mockRejectedValue(new Error('offline'))
    const shown = await renderComponent(<ExplainedText text={TEXT} />)
    await waitFor(() => expect(analyseText).toHaveBeenCalled())
    await act(async () => {
      await Promise.resolve()
    })
    expect(underlined()).toEqual([])
    expect(shown.container.textContent).toBe(TEXT)
  })

  it('asks once per text, however often it is shown; again after a failure', async () => {
    await renderComponent(<ExplainedText text={TEXT} />)
    await renderComponent(<ExplainedText text={TEXT} />)
    await waitFor(() => expect(underlined()).toHaveLength(4))
    expect(analyseText).toHaveBeenCalledTimes(1)

    jest.mocked(analyseText).mockRejectedValueOnce(new Error('offline'))
    await renderComponent(<ExplainedText text="另一段文字" />)
    await waitFor(() => expect(analyseText).toHaveBeenCalledTimes(2))
    await act(async () => {
      await Promise.resolve()
    })
    await renderComponent(<ExplainedText text="另一段文字" />)
    await waitFor(() => expect(analyseText).toHaveBeenCalledTimes(3))
  })

  it('asks nothing when nobody is signed in, and shows the text plain', async () => {
    resetStores()
    const shown = await renderComponent(<ExplainedText text={TEXT} />)
    expect(shown.container.textContent).toBe(TEXT)
    expect(analyseText).not.toHaveBeenCalled()
  })
})
