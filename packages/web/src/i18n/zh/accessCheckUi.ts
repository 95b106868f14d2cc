/** Words of the access check screen (issue 31) that only the web app shows; the steps' words are the shared catalogue's. */
export const accessCheckUi = {
  form: {
    card: '卡号',
    cardPlaceholder: '卡号（1 到 10 位数字）',
    door: '门',
    doorPlaceholder: '选择控制器的门',
    at: '时间',
    atPlaceholder: '现在',
    check: '检查',
    again: '重新检查',
    empty: '输入卡号并选择门，查看此卡为何能或不能通过',
    zone: '本区域时间（{{zone}}）',
  },
  side: {
    server: '系统一侧',
    controller: '控制器一侧',
    readAt: '{{time}} 实时读取',
    notRead: '未读取',
    failed: '检查失败',
  },
  disagree: {
    title: '系统与控制器不一致',
    syncNow: '立即同步',
    syncStarted: '已开始同步控制器，完成后重新检查',
    adminOnly: '门禁管理员可立即同步此控制器',
  },
  who: {
    keyword: '姓名或卡号',
    title: '{{time}} 可通过此门的人员',
    titleNow: '现在可通过此门的人员',
    held: '此门当时常闭：无人可刷卡通过',
    visitor: '访客',
    anyTime: '任何时间',
  },
  action: {
    check: '通行检查',
  },
} as const;
