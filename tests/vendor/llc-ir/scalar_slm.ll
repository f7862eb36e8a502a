; scalar local memory: each index point i stores s * i + t at SLM word
; 4 * (i & 7) (llvm.tpc.st.l), reads it back (llvm.tpc.ld.l) and adds it to
; every element of a
target triple = "tpc"

define void @main(i32 %s, i32 %t) {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 64
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %a = call <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32> %c, i8 0, i32 0, <64 x i32> undef, i1 true, i1 false)
  %p = mul i32 %s, %i
  %v = add i32 %p, %t
  %slot = and i32 %i, 7
  %addr = shl i32 %slot, 2
  call void @llvm.tpc.st.l.i32(i32 %addr, i32 %v, i32 0, i1 true, i1 false)
  %back = call i32 @llvm.tpc.ld.l.i32(i32 %addr, i32 0, i32 undef, i1 true, i1 false)
  %bv = insertelement <64 x i32> undef, i32 %back, i32 0
  %bs = shufflevector <64 x i32> %bv, <64 x i32> undef, <64 x i32> zeroinitializer
  %r = add <64 x i32> %a, %bs
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c, i8 1, <64 x i32> %r, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32>, i8, i32, <64 x i32>, i1, i1)
declare void @llvm.tpc.st.l.i32(i32, i32, i32, i1, i1)
declare i32 @llvm.tpc.ld.l.i32(i32, i32, i32, i1, i1)
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
