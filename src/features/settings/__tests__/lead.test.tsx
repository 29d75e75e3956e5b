import { fireEvent, screen } from '@testing-library/react'
import { isComingSoon } from '@/routes'
import { LeadView } from '../components/lead-view'
import { LEAD_SLIDES } from '../lead'
import { renderComponent } from '../../../../jest/taro-render'

describe('欢迎', () => {
  it('turns the pages with 下一步 and ends on 立即体验', async () => {
    const { container } = await renderComponent(<LeadView />)
    const track = container.querySelector('.lead__track') as HTMLElement
    expect(track.style.transform).toBe('translateX(-0%)')
    expect(screen.queryByText('立即体验')).not.toBeNull()
    for (let page = 1; page < LEAD_SLIDES.length; page += 1) {
      fireEvent.click(screen.getAllByText('下一步')[page - 1])
      expect(track.style.transform).toBe(`translateX(-${page * 100}%)`)
    }
    const dots = container.querySelectorAll('.lead__dot')
    expect(dots[LEAD_SLIDES.length - 1].className).toContain('lead__dot--active')
  })

  it('turns a page on a swipe, not on a short drag', async () => {
    const { container } = await renderComponent(<LeadView />)
    const lead = container.querySelector('.lead') as HTMLElement
    const track = container.querySelector('.lead__track') as HTMLElement
    fireEvent.touchStart(lead, { touches: [{ clientX: 300 }] })
    fireEvent.touchEnd(lead, { changedTouches: [{ clientX: 280 }] })
    expect(track.style.transform).toBe('translateX(-0%)')
    fireEvent.touchStart(lead, { touches: [{ clientX: 300 }] })
    fireEvent.touchEnd(lead, { changedTouches: [{ clientX: 100 }] })
    expect(track.style.transform).toBe('translateX(-100%)')
  })

  it('says 即将上线 on slides whose feature does not work yet', async () => {
    const { container } = await renderComponent(<LeadView />)
    const slides = Array.from(container.querySelectorAll('.lead__slide'))
    LEAD_SLIDES.forEach((slide, index) => {
      expect(slides[index].textContent?.includes('即将上线')).toBe(isComingSoon(slide.route))
    })
  })
})
