; an order-dependent scalar recurrence over the index points, walked
; downwards (i from last - 1 to first): acc = acc * 3 + i (i32, wrapping),
; out[i] = acc after point i, broadcast.
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  %start = sub i32 %last, 1
  br label %body

body:
  %i = phi i32 [ %start, %entry ], [ %next, %body ]
  %acc = phi i32 [ 1, %entry ], [ %acc2, %body ]
  %m = mul i32 %acc, 3
  %acc2 = add i32 %m, %i
  %x = mul i32 %i, 64
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %av = insertelement <64 x i32> undef, i32 %acc2, i32 0
  %a = shufflevector <64 x i32> %av, <64 x i32> undef, <64 x i32> zeroinitializer
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c, i8 0, <64 x i32> %a, i32 0, i1 true, i1 false)
  %next = sub i32 %i, 1
  %more = icmp sge i32 %next, %first
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
